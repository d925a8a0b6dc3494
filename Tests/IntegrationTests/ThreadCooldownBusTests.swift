import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// One banner for a burst, with chimed's default thread cooldown: what a person sees and hears
/// of twenty messages in one chat.
@Suite(.serialized) struct ThreadCooldownBusTests {
    static func message(_ text: String, urgent: Bool = false) -> [(String, BusValue)] {
        [("x-chime-thread", .string("alex")), ("category", .string("im.received"))] + (urgent ? [("urgency", .byte(2))] : [])
    }

    /// Twenty messages: one banner (Presented, then Updated in its place) and one sound; a
    /// time-sensitive one among them still rings.
    @Test func aBurstOfTwentyInOneThreadGivesOneBannerAndOneSound() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: "[sounds]\nminimum-gap = 0\n", pulse: pulse, threadCooldown: true)
        let watcher = try Watcher(bus: bus)
        let daemon = try #require(bus.daemon)
        // The watcher's probe rang: count from here.
        #expect(daemon.line(onStderr: true, timeout: 15) { $0.contains("sound finished") } != nil)
        let before = daemon.stderrLines.count
        let recording = try pulse.record()
        let client = try bus.client()
        var ids: [UInt32] = []
        for n in 0..<20 {
            ids.append(try client.notify(app: "Chat", summary: "Alex", body: "message \(n)", hints: Self.message("\(n)"), timeout: 0))
        }
        let last = watcher.process.line { $0.contains("\"updated\"") && $0.contains("\"id\":\(ids[19]),") }
        #expect(last?.contains("\"thread-count\":20") == true, "the banner stands for the twenty: \(last ?? "none")")
        #expect(daemon.line(onStderr: true, from: before, timeout: 15) { $0.contains("sound finished") } != nil)
        recording.grow(by: 0.5)
        #expect(try recording.stopAndMeasure() > 0.05)
        #expect(daemon.stderrLines[before...].filter { $0.contains("sound started") }.count == 1, "\(bus.daemonLog)")
        let events = watcher.process.stdoutLines.filter { $0.contains("\"app-name\":\"Chat\"") }
        #expect(events.filter { $0.hasPrefix("{\"event\":\"presented\"") }.count == 1, "one Presented, the rest Updated")
        #expect(events.filter { $0.hasPrefix("{\"event\":\"updated\"") }.count == 19)
        let presented = try client.list().filter { $0["state"]?.string == "presented" }.compactMap { $0["id"]?.uint32 }
        #expect(presented == [ids[19]])
        #expect(try client.list().filter { $0["app-name"]?.string == "Chat" }.count == 20, "each is its own entry")

        _ = try client.notify(app: "Chat", summary: "Alex", body: "call me now", hints: Self.message("urgent", urgent: true), timeout: 0)
        #expect(daemon.line(onStderr: true, from: before, timeout: 15) { $0.contains("sound started") && $0.contains("chime-time-sensitive") } != nil)
    }

    /// On the screen: the thread keeps one banner, which shows the newest message.
    @Test func theThreadKeepsOneBannerOnTheScreen() throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, threadCooldown: true)
        let client = try bus.client()
        var last: UInt32 = 0
        for n in 0..<5 {
            last = try client.notify(app: "Chat", summary: "Alex", body: "message \(n)", hints: Self.message("\(n)"), timeout: 0)
        }
        let shown = try display.waitForWindows { $0.map(\.title) == ["chime-banner-\(last)"] }
        #expect(shown.map(\.title) == ["chime-banner-\(last)"])
        _ = try client.notify(app: "Mail", summary: "Invoice", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 2 }.count == 2, "another app's thread has its own banner")
    }
}
