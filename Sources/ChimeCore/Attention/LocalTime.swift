/// Wall-clock time as the adapter read it from GLib's GDateTime in the local time zone.
/// The core compares these values and never converts time zones itself, so daylight-saving
/// changes are whatever the local clock says they are.
public struct LocalTime: Equatable, Comparable, Sendable, CustomStringConvertible {
    /// Days since an arbitrary epoch (GDate's Julian day); consecutive days differ by 1.
    public var day: Int
    public var weekday: Weekday
    /// 0...1439.
    public var minuteOfDay: Int

    public init(day: Int, weekday: Weekday, minuteOfDay: Int) {
        self.day = day
        self.weekday = weekday
        self.minuteOfDay = minuteOfDay
    }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool {
        (lhs.day, lhs.minuteOfDay) < (rhs.day, rhs.minuteOfDay)
    }

    /// The minute after, as the clock reads it on a day without a daylight-saving change.
    public var nextMinute: LocalTime {
        minuteOfDay < 1_439 ? LocalTime(day: day, weekday: weekday, minuteOfDay: minuteOfDay + 1)
            : LocalTime(day: day + 1, weekday: Weekday(rawValue: weekday.rawValue % 7 + 1)!, minuteOfDay: 0)
    }

    public var description: String {
        "day \(day) \(weekday) \(ClockTime(minuteOfDay: minuteOfDay))"
    }
}

/// ISO weekdays: Monday is 1.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    public var previous: Weekday { Weekday(rawValue: rawValue == 1 ? 7 : rawValue - 1)! }

    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue - 1]
    }

    public init?(shortName: String) {
        guard let index = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].firstIndex(of: shortName.lowercased().prefix(3).description)
        else { return nil }
        self.init(rawValue: index + 1)
    }
}

/// A time of day, "HH:MM".
public struct ClockTime: Equatable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var minuteOfDay: Int

    public init(minuteOfDay: Int) { self.minuteOfDay = minuteOfDay }

    /// Parses "H:MM" or "HH:MM" (00:00 to 23:59).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        minuteOfDay = hour * 60 + minute
    }

    public static func < (lhs: ClockTime, rhs: ClockTime) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }

    public var description: String {
        let hour = minuteOfDay / 60, minute = minuteOfDay % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// Every clock the core needs, read once per event by the adapter.
public struct Now: Equatable, Sendable {
    /// For expiry: never jumps.
    public var monotonic: Instant
    /// Unix milliseconds: for `--for`/`--until`, budgets and what users read.
    public var wall: Int64
    public var local: LocalTime

    public init(monotonic: Instant, wall: Int64, local: LocalTime) {
        self.monotonic = monotonic
        self.wall = wall
        self.local = local
    }
}
