import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// While the screen is shared, by a portal's hook (`chimectl sharing`) or KDE's inhibition API
/// on org.freedesktop.Notifications, only critical notifications show, their previews hidden.
@Suite struct SharingBusTests {
    static let config = "[app Alarm]\ncritical-alerts = true\n"

    func state(of summary: String, in client: TestClient) throws -> String? {
        try client.list().first { $0["summary"]?.string == summary }?["state"]?.string
    }

    @Test func chimectlSharingHoldsAllButCriticalAndHidesItsPreview() throws {
        let bus = try TestBus(config: Self.config)
        let watcher = try Watcher(bus: bus)
        #expect(try bus.chimectl("sharing", "status").status == 1)
        let on = try bus.chimectl("sharing", "on")
        #expect(on.status == 0 && on.stdout.isEmpty, "\(on)")
        let shared = try bus.chimectl("sharing", "status")
        #expect(shared.status == 0 && shared.stdout.hasPrefix("sharing: on"), "\(shared)")
        #expect(try bus.chimectl("focus", "status").stdout.contains("Screen Sharing"))
        let status = try bus.chimectl("status").stdout
        #expect(status.contains("screen sharing: on") && status.contains("focused app and fullscreen: not followed"), "\(status)")
        _ = try bus.run("notify-send", ["-a", "Bank", "Your code is 4711", "x"])
        _ = try bus.run("notify-send", ["-a", "Alarm", "-h", "string:x-chime-interruption-level:critical", "Smoke upstairs", "kitchen"])
        let client = try bus.client()
        #expect(try state(of: "Your code is 4711", in: client) == "held-by-focus")
        let shown = try #require(watcher.presented(containing: "\"app-name\":\"Alarm\""))
        #expect(shown["summary"] as? String == "Alarm", "the preview is hidden: \(shown)")
        // As text, not as digits: a timestamp ("created") may hold 4711 too.
        #expect(watcher.allPresented(containing: "code is 4711").isEmpty)
        try bus.restartChimed()
        #expect(try bus.chimectl("sharing", "status").status == 0, "a restart during a share keeps it")
        #expect(try bus.chimectl("sharing", "off").status == 0)
        #expect(watcher.presented(containing: "While Screen Sharing was on") != nil)
        #expect(try state(of: "Your code is 4711", in: client) != "held-by-focus")
    }

    /// KDE's API: Inhibit turns sharing on, `Inhibited` says so, and it ends when the client that
    /// holds it leaves the bus.
    @Test func kdesInhibitionHoldsUntilItsClientLeaves() throws {
        let bus = try TestBus()
        let watcherClient = try bus.client()
        #expect(try watcherClient.call("GetCapabilities", []).first?.strings?.contains("inhibitions") == true)
        try watcherClient.listen("type='signal',interface='dev.chime.Chime1',member='FocusChanged'")
        let inhibited = { () throws -> Bool? in
            try watcherClient.call("Get", [.string("org.freedesktop.Notifications"), .string("Inhibited")],
                                   interface: "org.freedesktop.DBus.Properties").first?.unwrapped.bool
        }
        #expect(try inhibited() == false)
        do {
            let portal = try bus.client()
            let cookie = try portal.call("Inhibit", [.string("org.kde.xdg-desktop-portal-kde"), .string("screencast"), .vardict([])])
            #expect(cookie.first?.integer ?? 0 > 0)
            #expect(try inhibited() == true)
            _ = try portal.notify(app: "chat", summary: "while shared")
            #expect(try state(of: "while shared", in: portal) == "held-by-focus")
        }  // the portal's connection closes here
        #expect(watcherClient.waitUntil { watcherClient.signals(named: "FocusChanged").count == 2 })
        #expect(try inhibited() == false)
        #expect(try bus.chimectl("sharing", "status").status == 1)
    }

    /// A sandboxed app's Inhibit is refused (it would hold every other app's notifications), and
    /// one connection holds at most 16 inhibitions.
    @Test func inhibitionsAreBoundedAndNotASandboxesToHold() throws {
        let bus = try TestBus()
        let refused = try bus.runSandboxed(appID: "org.example.Sneaky", "/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
            "--method", "org.freedesktop.Notifications.Inhibit", "org.example.Sneaky", "screencast", "{}"])
        #expect(refused.status != 0 && refused.stderr.contains("AccessDenied") && refused.stderr.contains("sandboxed"), "\(refused)")
        #expect(try bus.chimectl("sharing", "status").status == 1, "nothing held")
        let host = try bus.client()
        for _ in 0..<16 {
            _ = try host.call("Inhibit", [.string("org.kde.xdg-desktop-portal-kde"), .string("screencast"), .vardict([])])
        }
        do {
            _ = try host.call("Inhibit", [.string("org.kde.xdg-desktop-portal-kde"), .string("screencast"), .vardict([])])
            Issue.record("a 17th inhibition was taken")
        } catch {
            #expect(error.name == BusError.limitsExceeded, "\(error)")
        }
    }
}
