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

    /// A day of a few hundred notifications from six apps, with a Focus turned on and off, the
    /// screen shared for a while, two fullscreen spells under headless sway, bursts over the rate limit, repeats and time-sensitive ones past
    /// the budget: replayed under the config in force, every outcome comes out as it did; under
    /// a config that sends Slack to the summary, Slack's are what changes.
    @Test func replayReproducesADayAndSaysWhatAnotherConfigChanges() throws {
        let config = """
            [general]
            rate-limit-burst = 5
            rate-limit-per-minute = 30

            [focus work]
            allowed-apps = Mail
            """
        let bus = try TestBus(config: config, wayland: true, threadCooldown: true)
        let wayland = try #require(bus.wayland)
        let client = try bus.client()
        func status() -> [String: BusValue] { (try? client.control("GetStatus").first?.vardictEntries) ?? [:] }
        let window = try bus.start(TestBus.binaries.appendingPathComponent("test-window").path, ["dev.chime.TestWindow"])
        defer { window.signal(SIGTERM) }
        #expect(client.waitUntil { status()["focused-app"]?.string == "dev.chime.TestWindow" }, "\(status())")
        func fullscreen(_ on: Bool) throws {
            _ = try wayland.swaymsg(["fullscreen", on ? "enable" : "disable"])
            #expect(client.waitUntil { status()["fullscreen"]?.bool == on }, "\(status())")
        }
        let apps = ["Slack", "Mail", "Calendar", "Spam", "Pager", "News"]
        for index in 0..<300 {
            switch index {
            case 60: #expect(try bus.chimectl("focus", "on", "work").status == 0)
            case 120: #expect(try bus.chimectl("focus", "off").status == 0)
            case 150: #expect(try bus.chimectl("sharing", "on").status == 0)
            case 180: #expect(try bus.chimectl("sharing", "off").status == 0)
            case 210, 260: try fullscreen(true)
            case 240, 280: try fullscreen(false)
            default: break
            }
            let app = apps[index % apps.count]
            var hints: [(String, BusValue)] = []
            if app == "Pager" { hints.append(("urgency", .byte(2))) }
            if app == "News" { hints.append(("urgency", .byte(0))) }
            // Spam floods with the same words now and then: repeats; the rest differ.
            let summary = app == "Spam" && index % 4 == 0 ? "Deal!" : "\(app) \(index)"
            _ = try client.notify(app: app, summary: summary, body: "body", hints: hints)
        }
        #expect(try client.list().filter { $0["summary"]?.string == "While Full Screen was on" }.count == 2, "two spells held what came")
        let same = try bus.chimectl("replay", "--json")
        #expect(same.status == 0, "\(same.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any]
        let changes = parsed?["changes"] as? [[String: Any]]
        #expect(changes?.isEmpty == true, "the config in force reproduces each outcome: \(changes?.prefix(3) ?? [])")
        let replayedApps = parsed?["apps"] as? [[String: Any]] ?? []
        #expect(replayedApps.count == 6 + 1, "the six apps and Chime's own recaps: \(replayedApps.map { $0["app-name"] ?? "" })")
        #expect(replayedApps.allSatisfy { $0["was-banners"] as? Int == $0["would-banners"] as? Int })

        let other = bus.directory.appendingPathComponent("other.conf")
        try (config + "\n[app Slack]\ndelivery = summary\n").write(to: other, atomically: true, encoding: .utf8)
        let summarized = try bus.chimectl("replay", "--config", other.path, "--json")
        let changed = (try JSONSerialization.jsonObject(with: Data(summarized.stdout.utf8)) as? [String: Any])?["changes"] as? [[String: Any]] ?? []
        #expect(!changed.isEmpty && changed.allSatisfy { $0["app-name"] as? String == "Slack" }, "\(changed.prefix(3))")
        #expect(changed.first.flatMap { ($0["would"] as? [String])?.contains("held for the scheduled summary: Slack has delivery = summary") } == true)
        let text = try bus.chimectl("replay", "--config", other.path).stdout
        #expect(text.contains("would come out otherwise:") && text.contains("Slack"), "\(text)")
    }
}
