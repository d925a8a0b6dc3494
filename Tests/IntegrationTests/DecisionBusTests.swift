import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The one decision as real clients meet it: ids of their own, a thread's banner that a lower
/// level never takes over, Chime's own word on the notification it concerns, a Focus set by hand
/// that holds across a restart, previews shown again when sharing ends, and `chimectl why`.
@Suite struct DecisionBusTests {
    func list(_ bus: TestBus) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try bus.chimectl("history", "--json").stdout.utf8)) as? [[String: Any]] ?? []
    }

    func state(_ bus: TestBus, _ summary: String) throws -> String? {
        try list(bus).first { $0["summary"] as? String == summary }?["state"] as? String
    }

    /// GLib's GNotification (through python-gi) sends low, normal, high, urgent, normal from one
    /// app within milliseconds: the urgent banner stays as it is; the normal one after it goes
    /// quietly to the center instead of taking it over.
    @Test func aLowerLevelNeverTakesOverAHigherBanner() throws {
        let bus = try TestBus(threadCooldown: true)
        let script = bus.directory.appendingPathComponent("burst.py")
        try """
        from gi.repository import Gio, GLib
        app = Gio.Application.new("org.example.Burst", Gio.ApplicationFlags.NON_UNIQUE)
        app.register(None)
        priorities = [Gio.NotificationPriority.LOW, Gio.NotificationPriority.NORMAL, Gio.NotificationPriority.HIGH,
                      Gio.NotificationPriority.URGENT, Gio.NotificationPriority.NORMAL]
        for index, priority in enumerate(priorities):
            notification = Gio.Notification.new("message %d" % index)
            notification.set_body("in the burst")
            notification.set_priority(priority)
            app.send_notification("n%d" % index, notification)
        loop = GLib.MainLoop()
        GLib.timeout_add(300, loop.quit)
        loop.run()
        """.write(to: script, atomically: true, encoding: .utf8)
        let sent = try bus.run("/usr/bin/python3", [script.path])
        #expect(sent.status == 0, "\(sent.stderr)")
        let client = try bus.client()
        #expect(client.waitUntil { (try? list(bus).count) == 5 })
        let states = try list(bus).map { "\($0["summary"] ?? ""): \($0["state"] ?? "")" }
        #expect(try state(bus, "message 3") == "presented", "the urgent banner stays: \(states)")
        #expect(try state(bus, "message 4") == "quiet")
        let id = try #require(try list(bus).first { $0["summary"] as? String == "message 4" }?["id"] as? Int)
        #expect(try bus.chimectl("why", String(id)).stdout.contains("its thread's banner is of a higher level"))
    }

    /// notify-send twice with the same texts prints two ids (python desktop-notifier's test_clear
    /// needs this); a transient notification's id is not given again after chimed is killed.
    @Test func everyCallHasAnIdNeverGivenAgain() throws {
        let bus = try TestBus()
        let first = try bus.run("notify-send", ["-p", "Same", "Body"]).stdout
        let second = try bus.run("notify-send", ["-p", "Same", "Body"]).stdout
        #expect(first != second)
        let transient = try bus.run("notify-send", ["-p", "-e", "not kept", "x"]).stdout
        bus.daemon?.signal(SIGKILL)
        _ = bus.daemon?.wait(timeout: 10)
        try bus.startDaemon()
        let after = try bus.run("notify-send", ["-p", "after", "x"]).stdout
        #expect((UInt32(after) ?? 0) > (UInt32(transient) ?? .max), "\(transient) then \(after)")
    }

    /// A scheduled Focus turned off by hand stays off across kill -9 and a restart, until its
    /// schedule's next boundary.
    @Test func aFocusTurnedOffByHandStaysOffAcrossARestart() throws {
        let bus = try TestBus(config: "[focus work]\nschedule = daily 00:00-12:00; daily 12:00-00:00\n")
        #expect(try bus.chimectl("focus", "status").stdout.contains("Work (schedule)"))
        #expect(try bus.chimectl("focus", "off").status == 0)
        _ = try bus.chimectl("status")  // the state is saved after the call's turn
        bus.daemon?.signal(SIGKILL)
        _ = bus.daemon?.wait(timeout: 10)
        try bus.startDaemon()
        let status = try bus.chimectl("focus", "status")
        #expect(status.stdout.hasPrefix("Focus: off"), "\(status.stdout)")
        _ = try bus.run("notify-send", ["-a", "Mail", "not held", "x"])
        #expect(try state(bus, "not held") == "presented")
    }

    /// Under a Focus that holds it, a critical alert of an app without critical-alerts is held,
    /// and Chime puts up no banner of its own about it; `why` names the Focus.
    @Test func aHeldAlertBringsNoBannerOfChimesAndWhyNamesTheFocus() throws {
        let bus = try TestBus(config: "[focus work]\nallow-time-sensitive = false\n")
        #expect(try bus.chimectl("focus", "on", "work").status == 0)
        let id = try bus.run("notify-send", ["-p", "-u", "critical", "-a", "battery", "Battery at 3%"]).stdout
        #expect(try bus.chimectl("list").stdout.split(separator: "\n").count == 1, "the alert alone, held")
        let why = try bus.chimectl("why", id).stdout
        #expect(why.contains("level time-sensitive: urgency critical"), "\(why)")
        #expect(why.contains("held: Focus Work does not allow battery"), "\(why)")
        let json = try bus.chimectl("why", id, "--json").stdout
        #expect(json.contains("\"reasons\":[\"level time-sensitive"), "\(json)")
        #expect(try bus.chimectl("focus", "off").status == 0)
        #expect(try bus.chimectl("history").stdout.contains("While Work was on"), "one recap after")
    }

    /// While the screen is shared a critical alert's banner hides its text; when sharing ends,
    /// the banner up shows it again.
    @Test func whenSharingEndsTheBannerUpShowsItsTextAgain() throws {
        let bus = try TestBus(config: "[app Pager]\ncritical-alerts = true\n")
        let watcher = try Watcher(bus: bus)
        #expect(try bus.chimectl("sharing", "on").status == 0)
        _ = try bus.run("notify-send", ["-a", "Pager", "-h", "string:x-chime-interruption-level:critical", "Disk full", "on /home"])
        let hidden = try #require(watcher.presented(containing: "\"app-name\":\"Pager\""))
        #expect(hidden["summary"] as? String == "Pager", "hidden while shared")
        #expect(try bus.chimectl("sharing", "off").status == 0)
        let shown = watcher.presented(containing: "Disk full")
        #expect(shown?["summary"] as? String == "Disk full", "its text again once sharing ended")
    }
}
