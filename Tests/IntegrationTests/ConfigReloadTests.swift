import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Reloading the config through chimectl and SIGHUP; a bad file changes nothing.
@Suite struct ConfigReloadTests {
    @Test func reloadAppliesANewFocus() throws {
        let bus = try TestBus(config: "[focus work]\n")
        try bus.writeConfig("[focus work]\n\n[focus gym]\nallowed-apps = Music\n")
        #expect(try bus.chimectl("reload").status == 0)
        #expect(try bus.chimectl("focus", "list").stdout.contains("gym"))
    }

    /// A rate limit that comes to refuse with a reload holds at once: no Notify is answered
    /// before the limit was counted (chimed's bus thread follows the reloaded config).
    @Test func aReloadThatRefusesOverTheRateLimitHoldsForTheNextCall() throws {
        let limit = "[general]\nrate-limit-burst = 1\nrate-limit-per-minute = 1\n"
        let bus = try TestBus(config: limit)
        try bus.writeConfig(limit + "rate-limit-action = refuse\n")
        #expect(try bus.chimectl("reload").status == 0)
        let client = try bus.client()
        _ = try client.notify(app: "spam", summary: "1")
        #expect(client.refusal(app: "spam", summary: "2") == "org.freedesktop.Notifications.Error.ExcessNotificationGeneration")
    }

    @Test func aBadFileIsRefusedWithItsLineAndThePreviousConfigStays() throws {
        let bus = try TestBus(config: "[focus work]\n")
        try bus.writeConfig("[focus work]\nschedule = mon-fri 09:00-09:00\n")
        let result = try bus.chimectl("reload")
        #expect(result.status == 1)
        #expect(result.stderr.contains("chime.conf:2: [focus work] schedule:"))
        #expect(result.stderr.contains("start and end are both 09:00"))
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

    @Test func aBadFileAtStartIsReportedAndTheDefaultsServe() throws {
        let bus = try TestBus(config: "[general]\nprevieuws = never\n")
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true) { $0.contains("chime.conf:2: [general] previeuws: unknown key") } != nil)
        #expect(try bus.run("notify-send", ["still", "works"]).status == 0)
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
}
