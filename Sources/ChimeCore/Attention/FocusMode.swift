/// A named Focus from config (`[focus NAME]`); `dnd` always exists.
public struct FocusMode: Equatable, Sendable {
    public var name: String
    /// App identities (desktop entry or app name) that always get through.
    public var allowedApps: Set<String> = []
    /// People whose communication notifications get through; compared case-insensitively.
    public var allowedPeople: Set<String> = []
    public var allowsTimeSensitive = true
    public var hidesBadges = false
    /// What it lets through is shown with its preview hidden (the sharing Focus).
    public var hidesPreviews = false
    public var schedules: [FocusSchedule] = []

    public static let doNotDisturb = "dnd"
    /// On while the screen is shared or mirrored: KDE's inhibition API (a screencast portal calls
    /// it), or `chimectl sharing on` from a portal's hooks.
    public static let sharing = "sharing"
    /// On while the focused window is fullscreen (a game, a film, a presentation).
    public static let fullscreen = "fullscreen"

    public init(name: String) { self.name = name }

    /// "dnd" reads as "Do Not Disturb", "sharing" as "Screen Sharing"; other names as the config
    /// spells them, capitalised.
    public static func displayName(_ name: String) -> String {
        switch name {
        case doNotDisturb: tr("Do Not Disturb")
        case sharing: tr("Screen Sharing")
        case fullscreen: tr("Full Screen")
        default: name.prefix(1).uppercased() + name.dropFirst()
        }
    }

    /// The Focus modes that always exist: Do Not Disturb; screen sharing, which lets only
    /// critical notifications through and hides their previews (Apple's default while mirroring);
    /// and fullscreen, which holds all but critical ones until the window leaves fullscreen.
    public static var builtIn: [FocusMode] {
        var sharing = FocusMode(name: Self.sharing)
        sharing.allowsTimeSensitive = false
        sharing.hidesPreviews = true
        var fullscreen = FocusMode(name: Self.fullscreen)
        fullscreen.allowsTimeSensitive = false
        return [FocusMode(name: doNotDisturb), sharing, fullscreen]
    }

    public func allowsPerson(_ person: String) -> Bool {
        allowedPeople.contains(person.lowercased())
    }

    public func isScheduled(at time: LocalTime) -> Bool {
        schedules.contains { $0.isActive(at: time) }
    }

    /// Whether it was scheduled at every minute after `start` through `end`: no boundary of its
    /// schedule lay between them. Over a week apart, it was not (no schedule runs that long).
    public func isScheduled(from start: LocalTime, through end: LocalTime) -> Bool {
        guard start < end else { return isScheduled(at: end) }
        guard end.day - start.day <= 7 else { return false }
        var time = start
        while time < end {
            time = time.nextMinute
            if !isScheduled(at: time) { return false }
        }
        return true
    }
}

/// "mon-fri 09:00-17:00": days of the week and a span of local time. A span whose end is
/// before its start runs past midnight and belongs to the day it starts on.
public struct FocusSchedule: Equatable, Sendable, CustomStringConvertible {
    public var days: Set<Weekday>
    public var start: ClockTime
    public var end: ClockTime

    public init(days: Set<Weekday>, start: ClockTime, end: ClockTime) {
        self.days = days
        self.start = start
        self.end = end
    }

    public func isActive(at time: LocalTime) -> Bool {
        let minute = time.minuteOfDay
        if start < end {
            return days.contains(time.weekday) && minute >= start.minuteOfDay && minute < end.minuteOfDay
        }
        // Crosses midnight: the evening part today, or the morning part of a span begun yesterday.
        return (days.contains(time.weekday) && minute >= start.minuteOfDay)
            || (days.contains(time.weekday.previous) && minute < end.minuteOfDay)
    }

    /// Parses "DAYS HH:MM-HH:MM" where DAYS is "daily", "weekdays", "weekends", or a comma list
    /// of days and ranges ("mon-fri", "sat,sun", "mon,wed-fri").
    public static func parse(_ text: String) -> Result<FocusSchedule, ConfigProblem> {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2 else {
            return .failure(.init("schedule '\(text)' must be 'DAYS HH:MM-HH:MM', for example 'mon-fri 09:00-17:00'"))
        }
        guard let days = parseDays(String(words[0])) else {
            return .failure(.init("schedule '\(text)': '\(words[0])' is not a list of days (mon-fri, sat,sun, daily, weekdays, weekends)"))
        }
        let times = words[1].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, let start = ClockTime(parsing: String(times[0])), let end = ClockTime(parsing: String(times[1])) else {
            return .failure(.init("schedule '\(text)': '\(words[1])' is not a time span HH:MM-HH:MM"))
        }
        guard start != end else {
            return .failure(.init("schedule '\(text)': start and end are both \(start); a span needs two different times"))
        }
        return .success(FocusSchedule(days: days, start: start, end: end))
    }

    static func parseDays(_ text: String) -> Set<Weekday>? {
        switch text.lowercased() {
        case "daily", "everyday": return Set(Weekday.allCases)
        case "weekdays": return Set(Weekday.allCases.filter { $0 <= .friday })
        case "weekends": return [.saturday, .sunday]
        default: break
        }
        var days: Set<Weekday> = []
        for part in text.split(separator: ",") {
            let ends = part.split(separator: "-")
            guard (1...2).contains(ends.count), ends.allSatisfy({ $0.count == 3 }),
                  let first = Weekday(shortName: String(ends[0])),
                  let last = Weekday(shortName: String(ends[ends.count - 1])) else { return nil }
            var day = first
            days.insert(day)
            while day != last {
                day = Weekday(rawValue: day.rawValue % 7 + 1)!
                days.insert(day)
            }
        }
        return days.isEmpty ? nil : days
    }

    public var description: String {
        let names = Weekday.allCases.filter(days.contains).map(\.shortName).joined(separator: ",")
        return "\(names) \(start)-\(end)"
    }
}

/// What is wrong with a value in the config; the loader adds file and line.
public struct ConfigProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
