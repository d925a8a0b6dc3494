import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// How a notification on screen changes, as apps and scripts send them: updates in place, the
/// banner taken down when the model no longer shows it, and every notification ending for its app.
@Suite struct ScreenTransitionBusTests {
    static let tag = ("x-dunst-stack-tag", BusValue.string("volume"))

    /// A volume script over the rate limit: the update it sends is quiet, and the banner it
    /// replaces comes down (Withdrawn, reason 4) instead of staying on screen for ever.
    @Test func aStackTagUpdateOverTheRateLimitTakesItsBannerDown() throws {
        let bus = try TestBus(config: "[general]\nrate-limit-burst = 2\nrate-limit-per-minute = 1\n")
        let watch = try Watcher(bus: bus)
        let client = try bus.client()
        let id = try client.notify(app: "volume", summary: "10%", hints: [Self.tag], timeout: 0)
        #expect(watch.presented(containing: "\"10%\"") != nil)
        _ = try client.notify(app: "volume", summary: "muted", timeout: 0)
        #expect(try client.notify(app: "volume", summary: "20%", hints: [Self.tag], timeout: 0) == id, "updated in place")
        let withdrawn = watch.process.line { $0.contains("\"withdrawn\"") && $0.contains("\"id\":\(id),") }
        #expect(withdrawn?.contains("\"reason\":4") == true, "\(watch.process.stdout)")
        let listed = try client.list().first { $0["id"]?.uint32 == id }
        #expect(listed?["state"]?.string == "quiet")
        #expect(listed?["summary"]?.string == "20%")
    }

    /// `notify-send --wait` returns for a notification that gets no banner too: it ends for its
    /// app at its timeout, and the center keeps it unread.
    @Test func aNotificationWithoutABannerEndsAtItsTimeout() throws {
        let bus = try TestBus()
        let started = Date()
        let result = try bus.run("notify-send", ["-u", "low", "-t", "1000", "--wait", "quiet", "x"], timeout: 15)
        #expect(result.status == 0, "\(result)")
        #expect(Date().timeIntervalSince(started) < 10)
        let json = try bus.chimectl("history", "--json").stdout
        let entries = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        let entry = entries.first { $0["summary"] as? String == "quiet" }
        #expect(entry?["state"] as? String == "closed")
        #expect(entry?["unread"] as? Bool == true)
    }

    /// An update in place is quiet: a read notification stays read, in the center too; one the
    /// app marks `x-chime-interrupt` is unread again.
    @Test func anUpdateInPlaceLeavesAReadNotificationRead() throws {
        let bus = try TestBus()
        var client = try bus.client()
        let id = try client.notify(app: "volume", summary: "10%", hints: [Self.tag], timeout: 0)
        #expect(try unread(bus, app: "volume") == 1)
        #expect(try bus.chimectl("read", "\(id)").status == 0)
        #expect(try unread(bus, app: "volume") == 0)
        #expect(try client.notify(app: "volume", summary: "20%", hints: [Self.tag], timeout: 0) == id)
        #expect(try unread(bus, app: "volume") == 0, "still read")
        try bus.restartChimed()
        #expect(try unread(bus, app: "volume") == 0, "the center kept it read")

        client = try bus.client()
        let again = try client.notify(app: "volume", summary: "30%", hints: [Self.tag], timeout: 0)
        #expect(try bus.chimectl("read", "\(again)").status == 0)
        let interrupting = [Self.tag, ("x-chime-interrupt", BusValue.bool(true))]
        #expect(try client.notify(app: "volume", summary: "40%", hints: interrupting, timeout: 0) == again)
        #expect(try unread(bus, app: "volume") == 1, "x-chime-interrupt makes it unread again")
    }

    /// An app's unread count, as `chimectl badges --json` says it.
    func unread(_ bus: TestBus, app: String) throws -> Int {
        let json = try bus.chimectl("badges", "--json").stdout
        let badges = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return badges.first { $0["app"] as? String == app }?["count"] as? Int ?? 0
    }
}
