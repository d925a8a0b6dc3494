import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Reading the config at start and reloading it through chimectl and SIGHUP: a bad line or
/// section costs only itself, is said, and is listed until it is fixed.
@Suite struct ConfigReloadTests {
    @Test func reloadAppliesANewFocus() throws {
        let bus = try TestBus(config: "[focus work]\n")
        try bus.writeConfig("[focus work]\n\n[focus gym]\nallowed-apps = Music\n")
        #expect(try bus.chimectl("reload").status == 0)
        #expect(try bus.chimectl("focus", "list").stdout.contains("gym"))
    }

    /// A rate limit that comes to refuse with a reload holds at once: no Notify is answered
    /// before the limit was counted.
    @Test func aReloadThatRefusesOverTheRateLimitHoldsForTheNextCall() throws {
        let limit = "[general]\nrate-limit-burst = 1\nrate-limit-per-minute = 1\n"
        let bus = try TestBus(config: limit)
        try bus.writeConfig(limit + "rate-limit-action = refuse\n")
        #expect(try bus.chimectl("reload").status == 0)
        let client = try bus.client()
        _ = try client.notify(app: "spam", summary: "1")
        #expect(client.refusal(app: "spam", summary: "2") == "org.freedesktop.Notifications.Error.ExcessNotificationGeneration")
    }

    @Test func aReloadLeavesOutABadLineSaysItAndAppliesTheRest() throws {
        let bus = try TestBus(config: "[focus work]\n")
        try bus.writeConfig("[focus work]\nschedule = mon-fri 09:00-09:00\n\n[focus gym]\n")
        let result = try bus.chimectl("reload")
        #expect(result.status == 1)
        #expect(result.stderr.contains("chime.conf:2: [focus work] schedule:"))
        #expect(result.stderr.contains("start and end are both 09:00"))
        #expect(try bus.chimectl("focus", "on", "gym").status == 0, "the rest of the file is in force")
        #expect(try bus.chimectl("focus", "on", "work").status == 0, "the section of the bad line too")
        try bus.writeConfig("[focus work]\n")
        #expect(try bus.chimectl("reload").status == 0)
        #expect(!(try bus.chimectl("status").stdout.contains("problem")), "fixed, nothing is listed")
    }

    /// A file that cannot be read at all changes nothing.
    @Test func aReloadOfAFileThatCannotBeReadKeepsThePreviousConfig() throws {
        let bus = try TestBus(config: "[focus work]\n")
        try FileManager.default.removeItem(at: bus.configPath)
        try FileManager.default.createDirectory(at: bus.configPath, withIntermediateDirectories: false)
        let result = try bus.chimectl("reload")
        #expect(result.status == 1 && result.stderr.contains("chime.conf:"), "\(result)")
        #expect(try bus.chimectl("focus", "on", "work").status == 0, "the previous config is still in force")
    }

    @Test func sighupReloads() throws {
        let bus = try TestBus(config: "[focus work]\n")
        try bus.writeConfig("[focus reading]\n")
        let daemon = try #require(bus.daemon)
        daemon.signal(SIGHUP)
        #expect(daemon.line(onStderr: true) { $0.contains("reloaded") } != nil)
        #expect(try bus.chimectl("focus", "on", "reading").status == 0)
    }

    /// One unknown key at start costs its line: the rule beside it holds, and `chimectl status`
    /// names the line until it is fixed (under D-Bus activation nobody reads chimed's log).
    @Test func oneBadLineAtStartCostsThatLineAndStatusSaysIt() throws {
        let bus = try TestBus(config: "[general]\nprevieuws = never\n\n[rule quiet]\nmatch-app = ^spam$\nlevel = passive\n")
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true) { $0.contains("chime.conf:2: [general] previeuws: unknown key") } != nil)
        let id = try bus.run("notify-send", ["-p", "-a", "spam", "still", "works"]).stdout
        #expect(try bus.chimectl("show", id).stdout.contains("level: passive"), "the rule holds")
        let status = try bus.chimectl("status")
        #expect(status.stdout.contains("config: 1 problem, left out; the rest is in force:\n  "), "\(status.stdout)")
        #expect(status.stdout.contains("chime.conf:2: [general] previeuws: unknown key"))
        let json = try bus.chimectl("status", "--json").stdout
        #expect(json.contains("\"config-problems\":[\"") && json.contains("chime.conf:2: [general] previeuws"), "\(json)")
        #expect(try bus.chimectl("rules").stdout.hasPrefix("quiet"))
    }

    /// A file named with --config must be there (a mistyped path is said, not taken for an empty
    /// config); the usual one may be missing, which means the defaults, silently.
    @Test func aMissingConfigNamedWithConfigIsSaidAndTheDefaultsServe() throws {
        let bus = try TestBus(daemon: false)
        let missing = bus.directory.appendingPathComponent("typo.conf").path
        try bus.startDaemon(["--config", missing])
        #expect(bus.logSays("\(missing) does not exist; using the default settings"), "\(bus.daemonLog)")
        #expect(try bus.run("notify-send", ["still", "works"]).status == 0)
        let reload = try bus.chimectl("reload")
        #expect(reload.status == 1 && reload.stderr.contains("\(missing) does not exist"), "\(reload)")
        try bus.restartChimed()
        #expect(!bus.daemonLog.contains("chime.conf does not exist"), "the usual file may be missing: \(bus.daemonLog)")
    }

    /// Reading a config of thousands of rules takes time in proportion to it, with mistakes too:
    /// chimed with 4,000 rules (and a mistake in each) takes its name at once, and a reload with
    /// 20,000 answers well within D-Bus's timeout.
    @Test func aLargeConfigIsReadInLinearTime() throws {
        func rules(_ count: Int, mistakes: Bool) -> String {
            (0..<count).map { "[rule r\($0)]\nmatch-summary = ^build \($0) failed$\nlevel = critical\n" + (mistakes ? "oops = 1\nnot a line\n" : "") }
                .joined(separator: "\n")
        }
        let bus = try TestBus(config: rules(4_000, mistakes: true))
        #expect(try bus.chimectl("status", "--json").stdout.contains("r3999"), "the mistakes are listed")
        try bus.writeConfig(rules(20_000, mistakes: false))
        let started = Date()
        #expect(try bus.chimectl("reload").status == 0)
        let listed = try bus.chimectl("rules").stdout.split(separator: "\n")
        #expect(listed.count == 20_000, "\(listed.count) rules; the reload took \(Date().timeIntervalSince(started)) s")
    }
}
