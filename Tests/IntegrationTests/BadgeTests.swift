import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Badges as docks see them (com.canonical.Unity.LauncherEntry) and as bars see them
/// (BadgesChanged, chimectl watch --waybar), and the center across a restart.
@Suite struct BadgeTests {
    /// Listens to Chime's LauncherEntry Update signals on the test bus.
    final class Dock {
        let client: TestClient
        init(bus: TestBus) throws {
            client = try bus.client()
            try client.listen("type='signal',interface='com.canonical.Unity.LauncherEntry',path='/com/canonical/unity/launcherentry/chime'")
        }

        /// The latest Update for `app`: (count, count-visible).
        func latest(_ app: String) -> (count: Int64, visible: Bool)? {
            guard let update = client.signals(named: "Update").last(where: { $0.arguments.first == .string("application://\(app).desktop") }),
                  update.arguments.count == 2, let properties = update.arguments[1].vardictEntries,
                  case .int64(let count)? = properties["count"], let visible = properties["count-visible"]?.bool else { return nil }
            return (count, visible)
        }

        func waitFor(_ app: String, count: Int64, visible: Bool) -> Bool {
            client.waitUntil { latest(app).map { $0.count == count && $0.visible == visible } ?? false }
        }
    }

    @Test func launcherEntryCountsFollowArrivalsReadsAndDismissals() throws {
        let bus = try TestBus()
        let dock = try Dock(bus: bus)
        let app = try bus.client()
        let hints: [(String, BusValue)] = [("desktop-entry", .string("org.example.Mail"))]
        let first = try app.notify(app: "Mail", summary: "one", hints: hints)
        #expect(dock.waitFor("org.example.Mail", count: 1, visible: true))
        let second = try app.notify(app: "Mail", summary: "two", hints: hints)
        #expect(dock.waitFor("org.example.Mail", count: 2, visible: true))
        #expect(try bus.chimectl("read", "\(first)").status == 0)
        #expect(dock.waitFor("org.example.Mail", count: 1, visible: true))
        #expect(try bus.chimectl("dismiss", "\(second)").status == 0)
        #expect(dock.waitFor("org.example.Mail", count: 0, visible: false))

        // The app's badges off: the count still goes out, hidden.
        #expect(try bus.chimectl("apps", "set", "org.example.Mail", "badges=false").status == 0)
        _ = try app.notify(app: "Mail", summary: "three", hints: hints)
        #expect(dock.waitFor("org.example.Mail", count: 1, visible: false))
    }

    /// An app that sends its own LauncherEntry count (as Telegram does) gets no second one from
    /// Chime: Chime takes its count back and sends none after (bars still hear it); the app's
    /// count falling to zero marks its notifications in the center read.
    @Test func anAppsOwnBadgeReplacesChimesAndZeroReadsItsNotifications() throws {
        let bus = try TestBus()
        let dock = try Dock(bus: bus)
        let app = try bus.client()
        let hints: [(String, BusValue)] = [("desktop-entry", .string("org.example.Chat"))]
        _ = try app.notify(app: "Chat", summary: "one", hints: hints)
        #expect(dock.waitFor("org.example.Chat", count: 1, visible: true))
        func own(_ count: Int) throws {
            let emitted = try bus.run("gdbus", ["emit", "--session", "--object-path", "/org/example/Chat", "--signal",
                                                "com.canonical.Unity.LauncherEntry.Update", "application://org.example.Chat.desktop",
                                                "{'count': <int64 \(count)>, 'count-visible': <true>}"])
            #expect(emitted.status == 0, "\(emitted.stderr)")
        }
        try own(5)
        #expect(dock.waitFor("org.example.Chat", count: 0, visible: false), "Chime takes its count back")
        let updates = dock.client.signals(named: "Update").count
        // BadgesChanged goes out after the batch's LauncherEntry signals, from the same connection.
        try dock.client.listen("type='signal',interface='dev.chime.Chime1',member='BadgesChanged'")
        _ = try app.notify(app: "Chat", summary: "two", hints: hints)
        #expect(dock.client.waitUntil {
            dock.client.signals(named: "BadgesChanged").contains { $0.arguments.first?.records.first?["count"] == .int64(2) }
        }, "bars still hear Chime's count")
        #expect(dock.client.signals(named: "Update").count == updates, "docks hear none from Chime")
        try own(0)
        #expect(app.waitUntil { (try? bus.chimectl("history", "--state", "unread").stdout.isEmpty) == true }, "zero reads them")
        #expect(bus.logSays("org.example.Chat sends its own badge count"))
    }

    /// A stream of notifications is announced in batches (at most ten a second), the last with
    /// the full count: docks are not woken once per notification.
    @Test func aStreamOfNotificationsIsAnnouncedInBatchesEndingWithTheFullCount() throws {
        let bus = try TestBus()
        let dock = try Dock(bus: bus)
        let app = try bus.client()
        let hints: [(String, BusValue)] = [("desktop-entry", .string("org.example.Feed"))]
        for index in 1...60 { _ = try app.notify(app: "Feed", summary: "item \(index)", hints: hints) }
        #expect(dock.waitFor("org.example.Feed", count: 60, visible: true))
        let updates = dock.client.signals(named: "Update").count
        #expect(updates >= 1 && updates < 60, "\(updates) announcements for 60 notifications")
    }

    @Test func aFocusThatHidesBadgesHidesThemAndShowsThemAgainAfter() throws {
        let bus = try TestBus(config: "[focus work]\nallowed-apps = Chat\nhide-badges = true\n")
        let dock = try Dock(bus: bus)
        _ = try bus.client().notify(app: "Chat", summary: "hi")
        #expect(dock.waitFor("Chat", count: 1, visible: true))
        #expect(try bus.chimectl("focus", "on", "work").status == 0)
        #expect(dock.waitFor("Chat", count: 1, visible: false))
        #expect(try bus.chimectl("badges").stdout == "Chat\t1\t(hidden)")
        #expect(try bus.chimectl("focus", "off").status == 0)
        #expect(dock.waitFor("Chat", count: 1, visible: true))
    }

    @Test func watchWaybarPrintsTheCountAndFocusOnEveryChange() throws {
        let bus = try TestBus()
        let waybar = try bus.start(TestBus.chimectl, ["watch", "--waybar"])
        defer { waybar.signal(SIGKILL) }
        func next(_ text: String) -> [String: String]? {
            guard let line = waybar.line(timeout: 10, matching: { $0.contains(text) }) else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: String]
        }
        #expect(next("\"text\":\"0\"")?["class"] == "none")
        let id = try bus.client().notify(app: "Mail", summary: "hello")
        let one = next("\"text\":\"1\"")
        #expect(one?["alt"] == "notification")
        #expect(one?["tooltip"] == "1 unread\nMail: 1")
        #expect(try bus.chimectl("dnd", "on").status == 0)
        #expect(next("dnd-notification")?["tooltip"]?.hasSuffix("Focus: Do Not Disturb") == true, "the name people read")
        // One started while the Focus is on says so in its first line.
        let later = try bus.start(TestBus.chimectl, ["watch", "--waybar"])
        defer { later.signal(SIGKILL) }
        let first = later.line(timeout: 10, matching: { _ in true }).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        #expect(first?["tooltip"]?.hasSuffix("Focus: Do Not Disturb") == true, "\(String(describing: first))")
        #expect(try bus.chimectl("read", "\(id)").status == 0)
        #expect(next("dnd-none")?["text"] == "0")
    }

    @Test func watchStartsWithTheStateAndReportsBadgeChanges() throws {
        let bus = try TestBus()
        _ = try bus.client().notify(app: "Mail", summary: "before")
        let watch = try bus.start(TestBus.chimectl, ["watch"])
        defer { watch.signal(SIGKILL) }
        let state = watch.line(timeout: 10) { $0.contains("\"event\":\"state\"") }
        #expect(state?.contains("\"unread\":1") == true && state?.contains("\"app\":\"Mail\"") == true)
        _ = try bus.client().notify(app: "Mail", summary: "after")
        #expect(watch.line(timeout: 10) { $0.contains("\"event\":\"badges\"") && $0.contains("\"unread\":2") } != nil)
    }

    @Test func afterARestartUnreadSnoozedAndHeldAreAsTheyWereAndDocksHearTheCounts() throws {
        let bus = try TestBus()
        let client = try bus.client()
        let unread = try client.notify(app: "Mail", summary: "unread")
        let snoozed = try client.notify(app: "Mail", summary: "snoozed")
        #expect(try bus.chimectl("snooze", "\(snoozed)", "1h").status == 0)
        #expect(try bus.chimectl("dnd", "on").status == 0)
        let held = try client.notify(app: "Chat", summary: "held")
        let before = try client.list().map { "\($0["id"]?.integer ?? 0) \($0["state"]?.string ?? "")" }

        let dock = try Dock(bus: bus)
        try bus.restartChimed()
        #expect(dock.waitFor("Mail", count: 2, visible: true), "re-announced after the restart")
        #expect(dock.waitFor("Chat", count: 1, visible: true))
        let after = try client.list().map { "\($0["id"]?.integer ?? 0) \($0["state"]?.string ?? "")" }
        #expect(after == before.filter { !$0.hasPrefix("\(unread) ") }, "held and snoozed come back; the banner does not")
        #expect(after.contains("\(held) held-by-focus") && after.contains("\(snoozed) snoozed"))
        #expect(try bus.chimectl("badges").stdout == "Chat\t1\nMail\t2")
        #expect(try bus.chimectl("status").stdout.contains("focus: dnd"), "the manual Focus stays on")
    }
}
