@testable import ChimeConfig
import ChimeCore
@testable import ChimeDaemon
import Foundation
import Testing

@Suite struct ConfigLoaderTests {
    /// The settings and problems of `text`, the file's path written "chime.conf".
    func loaded(_ text: String) -> Result<ConfigLoader.Loaded, ConfigLoader.Problem> {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString).conf").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let named = { (problem: ConfigLoader.Problem) in
            ConfigLoader.Problem(description: problem.description.replacingOccurrences(of: path, with: "chime.conf"))
        }
        return ConfigLoader(path: path).load(base: ChimeSettings()).map { loaded in
            ConfigLoader.Loaded(settings: loaded.settings, problems: loaded.problems.map(named))
        }.mapError(named)
    }

    /// The settings of a file without problems, else its first problem.
    func load(_ text: String) -> Result<ChimeSettings, ConfigLoader.Problem> {
        loaded(text).flatMap { loaded in loaded.problems.first.map { .failure($0) } ?? .success(loaded.settings) }
    }

    func failure(_ text: String) -> String? {
        if case .failure(let failure) = load(text) { return failure.description }
        return nil
    }

    /// Copied as it is, the example changes nothing (a copy that turned Focus schedules on held
    /// notifications without a word); with its commented keys turned on, it loads too.
    @Test func theShippedExampleIsSafeToCopyAndLoadsUncommented() throws {
        let example = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("chime.conf.example"), encoding: .utf8)
        #expect(try load(example).get() == ChimeSettings())
        // '#' right before a key or a section is a setting turned off; '# ' begins prose.
        let uncommented = example.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") && !line.hasPrefix("# ") && line != "#" ? line.dropFirst() : line
        }.joined(separator: "\n")
        let settings = try load(uncommented).get()
        #expect(settings.focus(named: "work")?.schedules.isEmpty == false && settings.focus(named: "sleep") != nil)
        #expect(!settings.summaryTimes.isEmpty && settings.apps["firefox"]?["timeout"] == "8000")
        #expect(settings.rules.map(\.name) == ["radio"])
    }

    /// The README's example of rules is a config that loads, and does what it says it does.
    @Test func theReadmesRulesLoad() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```ini\n").dropFirst().first?.components(separatedBy: "```").first)
        let rules = try load(block).get().rules
        #expect(rules.map(\.name) == ["radio", "pager", "ci", "ci-failed"])
        let request = NotificationRequest(appName: "gitlab", summary: "Page: build 12", body: "<b>failed</b> at step 3")
        let effect = try #require(RuleEffect.of(rules, on: request))
        #expect(effect.rules == ["pager", "ci", "ci-failed"] && effect.level == .timeSensitive && effect.settings == ["delivery": "immediate"])
    }

    @Test func mouseButtonsTakeOneOfTheirActions() throws {
        let settings = try load("[popups]\nleft-click = menu\nmiddle-click = none\nright-click = dismiss-all\n").get()
        #expect(settings.popups.leftClick == .menu && settings.popups.middleClick == PopupSettings.ClickAction.none
                && settings.popups.rightClick == .dismissAll)
        #expect(failure("[popups]\nright-click = explode\n")
                == "chime.conf:2: [popups] right-click: 'explode' is not one of: default-action, dismiss, dismiss-all, menu, none")
    }

    @Test func aMissingFileMeansDefaults() throws {
        let loaded = try ConfigLoader(path: "/nonexistent/chime.conf").load(base: ChimeSettings()).get()
        #expect(loaded.settings == ChimeSettings() && loaded.problems.isEmpty)
    }

    @Test func everySectionIsRead() throws {
        let settings = try load("""
        [general]
        default-timeout = 8000
        default-authorization = provisional
        previews = when-unlocked
        time-sensitive-budget = 5
        repeat-window = 2m
        rate-limit-burst = 5
        rate-limit-per-minute = 30
        rate-limit-action = refuse
        history-max = 200
        history-max-age = 7d

        [summary]
        times = 18:00; 08:00

        [focus work]
        allowed-apps = slack; org.gnome.Evolution
        allowed-people = Ada Lovelace
        allow-time-sensitive = false
        hide-badges = true
        schedule = mon-fri 09:00-17:00; sat 10:00-12:00

        [popups]
        anchor = bottom-left
        margin = 30
        width = 420
        max-visible = 3
        output = HDMI-1

        [app firefox]
        previews = never
        delivery = summary
        """).get()
        #expect(settings.server.defaultTimeout == .milliseconds(8000))
        #expect(settings.defaultAuthorization == .provisional && settings.previews == .whenUnlocked)
        #expect(settings.timeSensitiveBudget == 5)
        #expect(settings.center.repeatWindow == .seconds(120))
        #expect(settings.center.rateLimit == .init(burst: 5, perMinute: 30, action: .refuse))
        #expect(settings.center.maximumEntries == 200 && settings.center.maximumAgeSeconds == 7 * 86_400)
        #expect(settings.summaryTimes.map(\.description) == ["08:00", "18:00"])
        let work = try #require(settings.focus(named: "work"))
        #expect(work.allowedApps == ["slack", "org.gnome.Evolution"])
        #expect(work.allowedPeople == ["ada lovelace"])
        #expect(!work.allowsTimeSensitive && work.hidesBadges && work.schedules.count == 2)
        #expect(settings.apps["firefox"] == ["previews": "never", "delivery": "summary"])
        #expect(settings.focus(named: "dnd") != nil, "dnd always exists")
        #expect(settings.popups.anchor == .bottomLeft && settings.popups.margin == 30 && settings.popups.width == 420)
        #expect(settings.popups.maximumVisible == 3 && settings.popups.output == "HDMI-1")
    }

    @Test(arguments: [
        ("[general]\nnot a key value line\n", "chime.conf:2: "),
        ("[general]\npreviews = always\n[general]\n", "chime.conf:3: section [general] appears again (first on line 1)"),
        ("[general]\ndefault-timeout = soon\n", "chime.conf:2: [general] default-timeout: 'soon' is not a positive number of milliseconds"),
        ("[general]\n\nprevieuws = never\n", "chime.conf:3: [general] previeuws: unknown key"),
        ("[focus work]\nhide-badges = maybe\n", "chime.conf:2: [focus work] hide-badges: 'maybe' is not true or false"),
        ("[focus work]\nschedule = mon-fri 09:00-09:00\n", "chime.conf:2: [focus work] schedule: schedule 'mon-fri 09:00-09:00': start and end are both 09:00"),
        ("[focus work]\nschedule = mon-fri 9am-5pm\n", "chime.conf:2: [focus work] schedule: schedule 'mon-fri 9am-5pm'"),
        ("[summary]\ntimes = 18:00;24:30\n", "chime.conf:2: [summary] times: '24:30' is not a time HH:MM"),
        ("[app firefox]\nbanners = sometimes\n", "chime.conf:2: [app firefox] banners: 'sometimes' is not true or false"),
        ("[app firefox]\nvolume = 11\n", "chime.conf:2: [app firefox] volume: unknown key"),
        ("[general]\ndefault-authorization = denied\n", "chime.conf:2: [general] default-authorization: 'denied' is not allowed or provisional"),
        ("\n[colours]\nfg = red\n", "chime.conf:2: [colours] is not a section Chime knows"),
        ("[popups]\nanchor = middle\n", "chime.conf:2: [popups] anchor: 'middle' is not one of: top-right"),
        ("[popups]\nmax-visible = 0\n", "chime.conf:2: [popups] max-visible: '0' is not a number from 1 to 50"),
        ("[general]\nrepeat-window = often\n", "chime.conf:2: [general] repeat-window: 'often' is not a duration"),
        ("[general]\nthread-cooldown = -1\n", "chime.conf:2: [general] thread-cooldown: '-1' is not a duration"),
        ("[app chat]\nthread-cooldown = soon\n", "chime.conf:2: [app chat] thread-cooldown: 'soon' is not a duration"),
        ("[general]\nrate-limit-burst = 0\n", "chime.conf:2: [general] rate-limit-burst: '0' is not a number from 1 to 100000"),
        ("[general]\nrate-limit-action = drop\n", "chime.conf:2: [general] rate-limit-action: 'drop' is not quiet or refuse"),
        ("[general]\nhistory-max = lots\n", "chime.conf:2: [general] history-max: 'lots' is not a number"),
        ("[general]\nhistory-max-age = forever\n", "chime.conf:2: [general] history-max-age: 'forever' is not a duration"),
        ("[focus]\nhide-badges = true\n", "chime.conf:1: [focus] is not a section Chime knows"),
        ("[rule r]\nmatch-summary = [a-\nbanners = false\n", "chime.conf:2: [rule r] match-summary: Error while compiling regular expression ‘[a-’ at char 3"),
        ("[rule r]\nmatch-body =\nbanners = false\n", "chime.conf:2: [rule r] match-body: the pattern is empty"),
        ("[rule r]\nmatch-urgency = high\nbanners = false\n", "chime.conf:2: [rule r] match-urgency: 'high' is not one of: low, normal, critical"),
        ("\n[rule r]\nbanners = false\n", "chime.conf:2: [rule r] matches every notification, and is left out; give it one of: match-app, "),
        ("[rule r]\nmatch-app = x\n", "chime.conf:1: [rule r] changes nothing, and is left out; give it one of: level, banners, "),
        ("[rule r]\nmatch-app = x\nlevel = loud\n", "chime.conf:3: [rule r] level: 'loud' is not one of: passive, active, time-sensitive, critical"),
        ("[rule r]\nmatch-app = x\ntimeout = 5s\n", "chime.conf:3: [rule r] timeout: '5s' is not a number of milliseconds"),
        ("[rule r]\nmatch-app = x\nauthorization = denied\n", "chime.conf:3: [rule r] authorization: unknown key"),
        ("[rule]\nmatch-app = x\n", "chime.conf:1: [rule] is not a section Chime knows"),
        ("[rule r]\nmatch-app = x\nsound = ../ding.oga\n", "chime.conf:3: [rule r] sound: '../ding.oga' is not a sound theme's event name"),
    ])
    func problemsNameFileAndLine(text: String, expected: String) {
        let message = failure(text)
        #expect(message?.hasPrefix(expected) == true, "\(message ?? "accepted")")
    }

    /// Patterns are taken as written (GKeyFile would refuse `\d` as an escape of its own) and
    /// kept in the file's order, with what each rule changes.
    @Test func rulesAreReadInOrderWithTheirPatternsAsWritten() throws {
        let settings = try load(#"""
        [rule builds]
        match-app = ^(gitlab|jenkins)$
        match-summary = (?i)build #\d+ failed
        match-urgency = critical
        level = time-sensitive
        sounds = false

        [rule spotify]
        match-body = Now playing
        match-category = ^x-spotify\.
        banners = no
        timeout = never
        """#).get()
        #expect(settings.rules.map(\.name) == ["builds", "spotify"])
        let builds = settings.rules[0]
        #expect(builds.criteria.map(\.field) == [.app, .summary])
        #expect(builds.criteria.map(\.pattern.source) == ["^(gitlab|jenkins)$", #"(?i)build #\d+ failed"#])
        #expect(builds.criteria[1].pattern.matches("Build #42 FAILED") == true)
        #expect(builds.criteria[1].pattern.matches("build #x failed") == false)
        #expect(builds.urgency == .critical && builds.level == .timeSensitive && builds.settings == ["sounds": "false"])
        #expect(settings.rules[1].criteria.map(\.field) == [.body, .category])
        #expect(settings.rules[1].settings == ["banners": "no", "timeout": "never"])
    }

    /// A sound file the config names is checked before it plays, not as the config is read: one
    /// not there yet must not have the whole file refused.
    @Test func aSoundFileNotThereYetLeavesTheConfigStanding() throws {
        let settings = try load("[app mail]\nsound = /nonexistent/ding.oga\n[rule r]\nmatch-app = x\nsound = /nonexistent/x.oga\n").get()
        #expect(settings.apps["mail"]?["sound"] == "/nonexistent/ding.oga" && settings.rules.first?.settings["sound"] == "/nonexistent/x.oga")
    }

    @Test func aZeroRepeatWindowTurnsMergingOff() throws {
        #expect(try load("[general]\nrepeat-window = 0\n").get().center.repeatWindow == .zero)
    }

    /// A span of 0 turns the thread cooldown off; chimectl apps show writes it as the key reads it.
    @Test func theThreadCooldownIsASpanOrZero() throws {
        #expect(try load("[general]\nthread-cooldown = 30s\n").get().center.threadCooldown == .seconds(30))
        #expect(try load("[general]\nthread-cooldown = 0\n").get().center.threadCooldown == .zero)
        var app = AppSettings()
        for text in ["0", "90s"] {
            #expect(app.set("thread-cooldown", to: text) == nil)
            let shown = try #require(app.textValues.first { $0.key == "thread-cooldown" }?.value)
            #expect(shown == text, "read back as written")
        }
        #expect(DaemonOptions.parse(["--thread-cooldown", "0"]) == .run({ var o = DaemonOptions(); o.threadCooldown = .zero; return o }()))
        if case .exit(let code, _) = DaemonOptions.parse(["--thread-cooldown", "later"]) { #expect(code == 2) } else { Issue.record("accepted") }
    }

    /// One mistake costs its line, not the config: every other rule, Focus and key applies.
    @Test func aBadLineIsLeftOutAndTheRestApplies() throws {
        let loaded = try loaded("""
        [general]
        previeuws = never
        default-timeout = 8000

        [focus work]
        allowed-apps = Slack
        schedule = mon-fri 09:00-09:00

        [rule pager]
        match-app = pager
        level = loud
        sounds = false
        """).get()
        #expect(loaded.problems.map(\.description).map { $0.prefix(while: { $0 != " " }) } == ["chime.conf:2:", "chime.conf:7:", "chime.conf:11:"])
        #expect(loaded.settings.server.defaultTimeout == .milliseconds(8_000))
        #expect(loaded.settings.focus(named: "work")?.allowedApps == ["Slack"])
        #expect(loaded.settings.focus(named: "work")?.schedules.isEmpty == true)
        #expect(loaded.settings.rules.map(\.name) == ["pager"] && loaded.settings.rules[0].settings == ["sounds": "false"])
    }

    /// What cannot stand alone goes as a whole, and is said once: a section Chime does not know,
    /// one repeated, a rule whose only pattern is wrong (it would match everything), a line that
    /// is no setting at all, and settings before the first section.
    @Test func aBadSectionOrLineOfTextIsLeftOutWhole() throws {
        let loaded = try loaded("""
        timeout = 5
        [genral]
        default-timeout = 1

        [rule broken]
        match-app = (unclosed
        banners = false

        [focus work]
        allowed-apps = Slack
        this is not a setting

        [focus work]
        allowed-apps = Mail

        [general]
        default-timeout = 9000
        """).get()
        #expect(loaded.problems.count == 6, "\(loaded.problems)")
        #expect(loaded.problems.contains { $0.description.hasPrefix("chime.conf:2: [genral] is not a section Chime knows") })
        #expect(loaded.problems.contains { $0.description.hasPrefix("chime.conf:5: [rule broken] matches every notification") })
        #expect(loaded.problems.contains { $0.description.hasPrefix("chime.conf:13: section [focus work] appears again") })
        #expect(loaded.problems.contains { $0.description.hasPrefix("chime.conf:11: ") })
        #expect(loaded.problems.contains { $0.description.hasPrefix("chime.conf:1: ") })
        #expect(loaded.settings.server.defaultTimeout == .milliseconds(9_000))
        #expect(loaded.settings.rules.isEmpty)
        #expect(loaded.settings.focus(named: "work")?.allowedApps == ["Slack"])
    }

    @Test func aFileThatCannotBeReadFailsWhole() {
        let loader = ConfigLoader(path: "/nonexistent/chime.conf", required: true)
        #expect(throws: ConfigLoader.Problem.self) { try loader.load(base: ChimeSettings()).get() }
        #expect(throws: ConfigLoader.Problem.self) { try ConfigLoader(path: "/").load(base: ChimeSettings()).get() }
    }

    @Test func theLineOfAKeyIsFoundInItsOwnSection() {
        #expect(failure("[focus a]\nhide-badges = true\n\n[focus b]\nhide-badges = nope\n")?.hasPrefix("chime.conf:5:") == true)
    }
}

// Serialized: the tests change TZ, which is process-wide.
@Suite(.serialized) struct LocalClockTests {
    /// Runs `body` with TZ set, restoring it after; GLib reads TZ when it makes a local time zone.
    func inZone<T>(_ zone: String, _ body: () -> T) -> T {
        let previous = ProcessInfo.processInfo.environment["TZ"]
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
            tzset()
        }
        return body()
    }

    @Test func localTimeFollowsDaylightSavingThroughGDateTime() {
        // 2026-03-29 in Europe/Berlin: 02:00 CET becomes 03:00 CEST, at 01:00 UTC.
        let beforeUTC: Int64 = 1_774_745_940_000  // 00:59 UTC = 01:59 CET
        let (before, after) = inZone("Europe/Berlin") {
            (LocalClock.localTime(unixMilliseconds: beforeUTC), LocalClock.localTime(unixMilliseconds: beforeUTC + 60_000))
        }
        #expect(before.minuteOfDay == 119 && after.minuteOfDay == 180)
        #expect(before.weekday == .sunday && before.day == after.day)
        let night = try! FocusSchedule.parse("sun 01:30-03:30").get()
        #expect(night.isActive(at: before) && night.isActive(at: after))
    }

    @Test func aClockWorksOutTheLocalTimeOncePerMinute() {
        let clock = LocalClock()
        let minute: Int64 = 1_774_745_940_000  // 00:59:00 UTC; 01:59 CET in Berlin
        let utc = inZone("UTC") { clock.localTime(unixMilliseconds: minute) }
        // The same minute in another zone is still the minute already worked out...
        let sameMinute = inZone("Europe/Berlin") { clock.localTime(unixMilliseconds: minute + 30_000) }
        // ...and the next minute is Berlin's: 03:00 CEST, the clocks having gone forward.
        let nextMinute = inZone("Europe/Berlin") { clock.localTime(unixMilliseconds: minute + 60_000) }
        #expect(utc.minuteOfDay == 59 && sameMinute.minuteOfDay == 59)
        #expect(nextMinute.minuteOfDay == 180)
    }

    @Test func untilCountsTheShortDayRight() {
        // From 00:30 local on the spring-forward night, 04:00 is 2.5 hours away, not 3.5.
        let start: Int64 = 1_774_740_600_000  // 23:30 UTC on the 28th = 00:30 CET on the 29th
        let until = inZone("Europe/Berlin") { LocalClock.nextOccurrence(of: ClockTime(parsing: "04:00")!, after: start) }
        #expect(until - start == 150 * 60_000)
    }
}
