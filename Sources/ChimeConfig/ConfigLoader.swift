import ChimeCore
import ChimeGLib
import Glibc

/// Reads chime.conf with GKeyFile into `ChimeSettings`. Every problem is reported as
/// "FILE:LINE: what is wrong", and costs only its line (or, for a bad section, its section):
/// the loader leaves it out and reads the rest, so one typo never drops every rule and Focus.
public struct ConfigLoader {
    /// One thing wrong in the file, and the lines (0-based) left out for it.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
        var skipped: Range<Int>?

        public init(description: String) { self.description = description }

        init(_ description: String, skipping lines: Range<Int>?) {
            self.description = description
            skipped = lines
        }
    }

    /// The settings the file gives, with what was wrong in it (and left out).
    public struct Loaded: Equatable {
        public var settings: ChimeSettings
        public var problems: [Problem]
    }

    public let path: String
    /// Whether the file must be there: one named with `--config` must, the usual one need not.
    public let required: Bool

    public init(path: String, required: Bool = false) {
        self.path = path
        self.required = required
    }

    /// `$XDG_CONFIG_HOME/chime`, else `~/.config/chime`: chime.conf and style.css live here.
    public static func folder(environment: [String: String]) -> String {
        chimeFolder("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
    }

    /// The user's style sheet for GTK's banners and panel, when there is one to read.
    public static func userStyleSheet(environment: [String: String]) -> String? {
        let path = folder(environment: environment) + "/style.css"
        return access(path, R_OK) == 0 ? path : nil
    }

    public static func defaultPath(environment: [String: String]) -> String {
        folder(environment: environment) + "/chime.conf"
    }

    /// A missing file means the defaults, unless it is `required`. Fails only when the file
    /// cannot be read at all; a bad line or section is a problem of the result, left out.
    /// `base`: what the config's values go over (chimed's command line).
    public func load(base: ChimeSettings) -> Result<Loaded, Problem> {
        let text: String
        switch FileContents.read(path) {
        case .success(let contents): text = contents
        case .failure(let error) where error.missing:
            return required ? .failure(Problem(description: "\(path) does not exist")) : .success(Loaded(settings: base, problems: []))
        case .failure(let error): return .failure(Problem(description: "\(path): \(error.message)"))
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Every problem of a pass is left out at once, so a file of many mistakes is read in a few
        // passes, not one a mistake.
        var problems = lineProblems(lines)
        var found = problems
        while true {
            for problem in found { for index in problem.skipped ?? 0..<0 { lines[index] = "" } }
            let (settings, next) = read(lines, base: base)
            guard !next.isEmpty else { return .success(Loaded(settings: settings, problems: problems)) }
            // A problem that can be said but not left out ends the reading here.
            if let stuck = next.first(where: { ($0.skipped ?? 0..<0).allSatisfy { lines[$0].isEmpty } }) { return .failure(stuck) }
            problems += next
            found = next
        }
    }

    /// Lines that are no setting, section or comment, and settings before the first section:
    /// GKeyFile would refuse the whole file for one.
    private func lineProblems(_ lines: [String]) -> [Problem] {
        var problems: [Problem] = []
        var inSection = false
        for (index, line) in lines.enumerated() {
            let text = line.trimmingWhitespace
            if text.isEmpty || text.hasPrefix("#") { continue }
            if text.hasPrefix("["), text.hasSuffix("]") {
                inSection = true
            } else if !text.contains("=") {
                problems.append(Problem("\(path):\(index + 1): '\(text)' is not a setting (KEY = VALUE), a [section] or a # comment; "
                                        + "the line is left out", skipping: index..<index + 1))
            } else if !inSection {
                problems.append(Problem("\(path):\(index + 1): '\(text)' comes before any [section]; the line is left out",
                                        skipping: index..<index + 1))
            }
        }
        return problems
    }

    /// The settings `lines` give, and the problems in them: the first of each section, every
    /// repeated section, or what GKeyFile refuses of the file.
    private func read(_ lines: [String], base: ChimeSettings) -> (ChimeSettings, [Problem]) {
        var settings = base
        let file = KeyFile()
        if let error = file.load(lines.joined(separator: "\n")) { return (base, [located(error, lines: lines)]) }
        let duplicates = duplicateGroups(lines)
        if !duplicates.isEmpty { return (base, duplicates) }
        var problems: [Problem] = []
        let sections = Sections(lines)
        for group in file.groups {
            do { try read(group, from: file, sections: sections, into: &settings) } catch { problems.append(error) }
        }
        return (settings, problems)
    }

    /// GKeyFile names the offending line's text but not its number; find the number.
    private func located(_ message: String, lines: [String]) -> Problem {
        for (index, line) in lines.enumerated() {
            let text = line.trimmingWhitespace
            if !text.isEmpty, message.firstByteRange(of: text) != nil {
                return Problem("\(path):\(index + 1): \(message)", skipping: index..<index + 1)
            }
        }
        // "Key file does not start with a group": what comes before the first section.
        let firstSection = lines.firstIndex { $0.trimmingWhitespace.hasPrefix("[") } ?? lines.count
        if let first = lines[..<firstSection].firstIndex(where: { Self.isSetting($0) }) {
            return Problem("\(path):\(first + 1): \(message)", skipping: 0..<firstSection)
        }
        return Problem("\(path): \(message)", skipping: nil)
    }

    /// Neither blank nor a comment.
    private static func isSetting(_ line: String) -> Bool {
        let text = line.trimmingWhitespace
        return !text.isEmpty && !text.hasPrefix("#")
    }

    /// GKeyFile merges a repeated [group] silently; a repeated section is almost always a mistake,
    /// and each repetition is left out.
    private func duplicateGroups(_ lines: [String]) -> [Problem] {
        var seen: [String: Int] = [:]
        var problems: [Problem] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingWhitespace
            guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { continue }
            if let first = seen[trimmed] {
                problems.append(Problem("\(path):\(index + 1): section \(trimmed) appears again (first on line \(first)); it is left out",
                                        skipping: section(at: index, lines: lines)))
            } else {
                seen[trimmed] = index + 1
            }
        }
        return problems
    }

    /// The lines of the section whose header is at `start`, up to the next section.
    private func section(at start: Int, lines: [String]) -> Range<Int> {
        let end = lines[(start + 1)...].firstIndex { line in
            let trimmed = line.trimmingWhitespace
            return trimmed.hasPrefix("[") && trimmed.hasSuffix("]")
        } ?? lines.count
        return start..<end
    }

    /// The file's lines and where each section is: a problem's line is found within its section,
    /// not by reading the whole file again, so a file of many mistakes is read in linear time.
    struct Sections {
        let lines: [String]
        /// The lines of each section, its header first (the first of a repeated one).
        private var ranges: [String: Range<Int>] = [:]

        init(_ lines: [String]) {
            self.lines = lines
            var current: (name: String, start: Int)?
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingWhitespace
                guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { continue }
                if let current, ranges[current.name] == nil { ranges[current.name] = current.start..<index }
                current = (String(trimmed.dropFirst().dropLast()), index)
            }
            if let current, ranges[current.name] == nil { ranges[current.name] = current.start..<lines.count }
        }

        func range(of group: String) -> Range<Int>? { ranges[group] }
    }

    /// A problem with `[group]` as a whole: said at its header, and the section left out.
    func sectionProblem(_ group: String, sections: Sections, _ message: String) -> Problem {
        guard let range = sections.range(of: group) else { return Problem("\(path): [\(group)] \(message)", skipping: nil) }
        return Problem("\(path):\(range.lowerBound + 1): [\(group)] \(message)", skipping: range)
    }

    /// The line of `key` in `[group]`, 0-based.
    private func line(of key: String, in group: String, sections: Sections) -> Int? {
        sections.range(of: group)?.first { index in
            let trimmed = sections.lines[index].trimmingWhitespace
            return trimmed.hasPrefix(key) && String(trimmed.dropFirst(key.count)).trimmingWhitespace.hasPrefix("=")
        }
    }

    /// A problem with one key: said at its line, and the line left out (the section, when the
    /// line cannot be found).
    private func keyProblem(_ key: String, in group: String, sections: Sections, _ message: String) -> Problem {
        guard let index = line(of: key, in: group, sections: sections) else {
            return sectionProblem(group, sections: sections, "\(key): \(message)")
        }
        return Problem("\(path):\(index + 1): [\(group)] \(key): \(message)", skipping: index..<index + 1)
    }

    /// A whole number within `range`, or nil when the key is absent.
    private func integer(_ key: String, _ range: ClosedRange<Int>, _ value: (String) -> String?,
                         _ fail: (String, String) -> Problem) throws(Problem) -> Int? {
        guard let text = value(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw fail(key, "'\(text)' is not a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// [popups]: where banners go and how many.
    private func readPopups(_ value: (String) -> String?, _ fail: (String, String) -> Problem,
                            into popups: inout PopupSettings) throws(Problem) {
        if let text = value("enabled") {
            guard let on = AppSettings.bool(text) else { throw fail("enabled", "'\(text)' is not true or false") }
            popups.enabled = on
        }
        if let text = value("anchor") {
            guard let anchor = PopupSettings.Anchor(rawValue: text) else {
                throw fail("anchor", "'\(text)' is not one of: " + PopupSettings.Anchor.allCases.map(\.rawValue).joined(separator: ", "))
            }
            popups.anchor = anchor
        }
        for (key, range, path) in [("margin", 0...2_000, \PopupSettings.margin), ("gap", 0...500, \PopupSettings.gap),
                                   ("width", 120...4_000, \PopupSettings.width), ("max-visible", 1...50, \PopupSettings.maximumVisible),
                                   ("icon-size", 0...512, \PopupSettings.iconSize)] {
            if let number = try integer(key, range, value, fail) { popups[keyPath: path] = number }
        }
        if let text = value("output"), !text.isEmpty { popups.output = text }
        if let text = value("idle-exit") {
            guard let span = DurationText.span(text) else {
                throw fail("idle-exit", "'\(text)' is not a duration such as 30s or 2m (0 keeps the presenter running)")
            }
            popups.idleExit = span
        }
        for (key, path) in [("left-click", \PopupSettings.leftClick), ("middle-click", \PopupSettings.middleClick),
                            ("right-click", \PopupSettings.rightClick)] {
            guard let text = value(key) else { continue }
            guard let action = PopupSettings.ClickAction(rawValue: text) else {
                throw fail(key, "'\(text)' is not one of: " + PopupSettings.ClickAction.allCases.map(\.rawValue).joined(separator: ", "))
            }
            popups[keyPath: path] = action
        }
    }

    /// [panel]: where the Notification Center panel goes.
    private func readPanel(_ value: (String) -> String?, _ fail: (String, String) -> Problem,
                           into panel: inout PanelSettings) throws(Problem) {
        if let text = value("edge") {
            guard let edge = PanelSettings.Edge(rawValue: text) else {
                throw fail("edge", "'\(text)' is not one of: " + PanelSettings.Edge.allCases.map(\.rawValue).joined(separator: ", "))
            }
            panel.edge = edge
        }
        if let width = try integer("width", 240...4_000, value, fail) { panel.width = width }
        if let text = value("output"), !text.isEmpty { panel.output = text }
    }

    /// The center's keys in [general]: repeats, the rate limit and retention.
    private func readCenter(_ value: (String) -> String?, _ fail: (String, String) -> Problem,
                            into center: inout CenterSettings) throws(Problem) {
        if let text = value("repeat-window") {
            guard let span = DurationText.span(text) else {
                throw fail("repeat-window", "'\(text)' is not a duration such as 60s or 5m (0 turns merging off)")
            }
            center.repeatWindow = span
        }
        if let text = value("thread-cooldown") {
            guard let span = DurationText.span(text) else {
                throw fail("thread-cooldown", "'\(text)' is not a duration such as 2m or 30s (0 turns it off)")
            }
            center.threadCooldown = span
        }
        if let burst = try integer("rate-limit-burst", 1...100_000, value, fail) { center.rateLimit.burst = burst }
        if let rate = try integer("rate-limit-per-minute", 1...1_000_000, value, fail) { center.rateLimit.perMinute = rate }
        if let text = value("rate-limit-action") {
            guard let action = CenterSettings.RateLimit.Action(rawValue: text) else {
                throw fail("rate-limit-action", "'\(text)' is not quiet or refuse")
            }
            center.rateLimit.action = action
        }
        if let maximum = try integer("history-max", 1...1_000_000, value, fail) { center.maximumEntries = maximum }
        if let text = value("history-max-age") {
            guard let seconds = DurationText.seconds(text) else { throw fail("history-max-age", "'\(text)' is not a duration such as 30d") }
            center.maximumAgeSeconds = seconds
        }
    }

    private func read(_ group: String, from file: KeyFile, sections: Sections, into settings: inout ChimeSettings) throws(Problem) {
        let fail = { (key: String, message: String) -> Problem in keyProblem(key, in: group, sections: sections, message) }
        let words = group.split(separator: " ", maxSplits: 1).map(String.init)
        let kind = words.first ?? ""
        let name = words.count > 1 ? words[1].trimmingWhitespace : ""
        // [general], [summary], [popups], [panel] and [sounds] stand alone; [focus NAME], [app NAME]
        // and [rule NAME] are named. Their keys are the settings table's.
        let named: Set<Setting.Section> = [.focus, .app, .rule]
        guard let section = Setting.Section(rawValue: kind), named.contains(section) != name.isEmpty else {
            throw sectionProblem(group, sections: sections, "is not a section Chime knows, and is left out; sections are [general], [summary], [sounds], [popups], [panel], [focus NAME], [app NAME] and [rule NAME]")
        }
        let allowed = Setting.keys(in: section)
        for key in file.keys(in: group) where !allowed.contains(key) {
            throw fail(key, "unknown key; keys here are: " + allowed.joined(separator: ", "))
        }
        let value = { (key: String) in file.string(group, key)?.trimmingWhitespace }
        switch kind {
        case "general":
            if let text = value("default-timeout") {
                guard let ms = Int64(text), ms > 0 else { throw fail("default-timeout", "'\(text)' is not a positive number of milliseconds") }
                settings.server.defaultTimeout = .milliseconds(ms)
            }
            if let text = value("default-authorization") {
                guard let choice = AppSettings.Authorization(rawValue: text), choice != .denied else {
                    throw fail("default-authorization", "'\(text)' is not allowed or provisional")
                }
                settings.defaultAuthorization = choice
            }
            if let text = value("previews") {
                guard let choice = AppSettings.Previews(rawValue: text) else {
                    throw fail("previews", "'\(text)' is not always, when-unlocked or never")
                }
                settings.previews = choice
            }
            for (key, path) in [("quiet-when-focused", \ChimeSettings.quietWhenFocused), ("hold-in-fullscreen", \ChimeSettings.holdInFullscreen),
                                ("now-playing", \ChimeSettings.nowPlaying)] {
                guard let text = value(key) else { continue }
                guard let on = AppSettings.bool(text) else { throw fail(key, "'\(text)' is not true or false") }
                settings[keyPath: path] = on
            }
            if let text = value("time-sensitive-budget") {
                guard let budget = Int(text), budget >= 0 else { throw fail("time-sensitive-budget", "'\(text)' is not a count") }
                settings.timeSensitiveBudget = budget
            }
            try readCenter(value, fail, into: &settings.center)
        case "popups":
            try readPopups(value, fail, into: &settings.popups)
        case "panel":
            try readPanel(value, fail, into: &settings.panel)
        case "summary":
            var times: [ClockTime] = []
            for text in file.list(group, "times") {
                guard let time = ClockTime(parsing: text) else { throw fail("times", "'\(text)' is not a time HH:MM") }
                times.append(time)
            }
            settings.summaryTimes = times.sorted()
        case "sounds":
            for (key, path) in [("theme", \SoundSettings.theme), ("active", \SoundSettings.activeEvent),
                                ("time-sensitive", \SoundSettings.timeSensitiveEvent), ("critical", \SoundSettings.criticalEvent)] {
                guard let text = value(key) else { continue }
                guard !text.isEmpty, !text.contains("/") else { throw fail(key, "'\(text)' is not a sound theme or event name") }
                settings.sounds[keyPath: path] = text
            }
            if let text = value("volume") {
                guard let decibels = Double(text), decibels <= 6, decibels >= -60 else {
                    throw fail("volume", "'\(text)' is not a volume in decibels between -60 and 6")
                }
                settings.sounds.volume = decibels
            }
            if let text = value("mute") {
                guard let muted = AppSettings.bool(text) else { throw fail("mute", "'\(text)' is not true or false") }
                settings.sounds.muted = muted
            }
            if let text = value("minimum-gap") {
                guard let gap = Int64(text), gap >= 0 else { throw fail("minimum-gap", "'\(text)' is not a number of milliseconds") }
                settings.sounds.minimumGap = gap
            }
        case "focus":
            var mode = settings.focus(named: name) ?? FocusMode(name: name)
            mode.allowedApps = Set(file.list(group, "allowed-apps"))
            mode.allowedPeople = Set(file.list(group, "allowed-people").map { $0.lowercased() })
            for (key, apply) in [("allow-time-sensitive", { (mode: inout FocusMode, on: Bool) in mode.allowsTimeSensitive = on }),
                                 ("hide-badges", { (mode: inout FocusMode, on: Bool) in mode.hidesBadges = on }),
                                 ("hide-previews", { (mode: inout FocusMode, on: Bool) in mode.hidesPreviews = on })] {
                guard let text = value(key) else { continue }
                guard let on = AppSettings.bool(text) else { throw fail(key, "'\(text)' is not true or false") }
                apply(&mode, on)
            }
            mode.schedules = []
            for text in file.list(group, "schedule") {
                switch FocusSchedule.parse(text) {
                case .success(let schedule): mode.schedules.append(schedule)
                case .failure(let problem): throw fail("schedule", problem.description)
                }
            }
            settings.focusModes.removeAll { $0.name == name }
            settings.focusModes.append(mode)
        case "app":
            var scratch = AppSettings()
            var values: [String: String] = [:]
            for key in file.keys(in: group) {
                let text = value(key) ?? ""
                if let problem = scratch.set(key, to: text) { throw fail(key, problem) }
                values[key] = text
            }
            settings.apps[name] = values
        case "rule":
            settings.rules.append(try readRule(name, group: group, from: file, sections: sections, value, fail))
        default:
            break
        }
    }
}
