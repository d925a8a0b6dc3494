import ChimeCore
import Glibc

/// Unix milliseconds as people read them, in the local time zone (the C library's, so `TZ`
/// holds). Scripts read the milliseconds themselves from `--json`.
enum LocalTimeText {
    /// "21:38" today, "Dec 2 21:38" on another day of this year, "2025-11-30 21:38" further off:
    /// as short as is still unambiguous beside `now`, like `ls -l`.
    static func short(_ unixMilliseconds: Int64, now: Int64 = wallNow()) -> String {
        let time = local(unixMilliseconds), today = local(now)
        // strftime's formats, in the person's language: a month's name and a day's order differ.
        if (time.tm_year, time.tm_yday) == (today.tm_year, today.tm_yday) { return format(tr("%H:%M"), time) }
        return format(time.tm_year == today.tm_year ? tr("%b %-d %H:%M") : tr("%Y-%m-%d %H:%M"), time)
    }

    /// "2026-12-01 21:38:05": every field, for one notification shown whole.
    static func full(_ unixMilliseconds: Int64) -> String {
        format("%Y-%m-%d %H:%M:%S", local(unixMilliseconds))
    }

    static func wallNow() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    private static func local(_ unixMilliseconds: Int64) -> tm {
        var seconds = time_t(unixMilliseconds / 1_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    private static func format(_ pattern: String, _ parts: tm) -> String {
        var parts = parts
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
