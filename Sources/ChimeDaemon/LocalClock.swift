import CGLib
import ChimeCore
import ChimeGLib

/// Reads the three clocks the core needs; local time comes from GLib's GDateTime in the
/// local time zone (TZ), so daylight-saving changes are GLib's, not ours.
final class LocalClock {
    /// The local time of the wall-clock minute last asked for. GLib 2.74 looks for the local zone
    /// afresh each time it makes a local time (two stats and a readlink of /etc/localtime), which
    /// would be every Notify; the local time changes only once a minute (zones are whole minutes
    /// off UTC), so a change of zone is seen from the next minute on.
    private var minute = Int64.min
    private var minuteLocalTime: LocalTime?

    func now() -> Now {
        let wall = Self.wallMilliseconds()
        return Now(monotonic: Instant(milliseconds: GLibSources.monotonicMilliseconds()), wall: wall,
                   local: localTime(unixMilliseconds: wall))
    }

    func localTime(unixMilliseconds: Int64) -> LocalTime {
        let minute = unixMilliseconds >= 0 ? unixMilliseconds / 60_000 : (unixMilliseconds + 1) / 60_000 - 1
        if minute == self.minute, let minuteLocalTime { return minuteLocalTime }
        let time = Self.localTime(unixMilliseconds: unixMilliseconds)
        (self.minute, minuteLocalTime) = (minute, time)
        return time
    }

    /// Unix milliseconds, without the local-time conversion `now()` pays for.
    static func wallMilliseconds() -> Int64 { Int64(g_get_real_time()) / 1000 }

    static func localTime(unixMilliseconds: Int64) -> LocalTime {
        let dateTime = g_date_time_new_from_unix_local(gint64(unixMilliseconds / 1000))!
        defer { g_date_time_unref(dateTime) }
        var year: gint = 0, month: gint = 0, day: gint = 0
        g_date_time_get_ymd(dateTime, &year, &month, &day)
        let date = g_date_new_dmy(GDateDay(day), GDateMonth(rawValue: UInt32(month)), GDateYear(year))!
        defer { g_date_free(date) }
        return LocalTime(day: Int(g_date_get_julian(date)),
                         weekday: Weekday(rawValue: Int(g_date_time_get_day_of_week(dateTime)))!,
                         minuteOfDay: Int(g_date_time_get_hour(dateTime)) * 60 + Int(g_date_time_get_minute(dateTime)))
    }

    /// The next moment the local clock shows `time` (today if still ahead, else tomorrow), as unix ms.
    /// Built with GDateTime so that a day of 23 or 25 hours is measured right.
    static func nextOccurrence(of time: ClockTime, after unixMilliseconds: Int64) -> Int64 {
        let now = g_date_time_new_from_unix_local(gint64(unixMilliseconds / 1000))!
        defer { g_date_time_unref(now) }
        for dayOffset in 0...2 {
            let day = g_date_time_add_days(now, gint(dayOffset))!
            defer { g_date_time_unref(day) }
            var year: gint = 0, month: gint = 0, date: gint = 0
            g_date_time_get_ymd(day, &year, &month, &date)
            guard let candidate = g_date_time_new_local(year, month, date, gint(time.minuteOfDay / 60),
                                                        gint(time.minuteOfDay % 60), 0) else { continue }
            defer { g_date_time_unref(candidate) }
            let ms = Int64(g_date_time_to_unix(candidate)) * 1000
            if ms > unixMilliseconds { return ms }
        }
        return unixMilliseconds + 86_400_000
    }

    /// Milliseconds until the next wall-clock minute begins, for the minute tick.
    static func untilNextMinute() -> UInt32 {
        UInt32(60_000 - wallMilliseconds() % 60_000) + 5
    }
}
