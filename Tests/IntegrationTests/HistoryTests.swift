import ChimeCore
@testable import ChimeStore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// The notification center on disk, through chimectl.
@Suite struct HistoryTests {
    /// The center a chimed on `bus` will find as it starts, made before it runs (what an earlier
    /// chimed left), and its path.
    static func centerBeforeStart(_ bus: TestBus) throws -> (store: NotificationStore, path: String) {
        let state = bus.directory.appendingPathComponent("state/chime")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let path = state.appendingPathComponent("chime.db").path
        return (try NotificationStore(path: path), path)
    }

    /// A notification from Mail as the center keeps it.
    static func mail(_ id: UInt32, _ summary: String) -> ChimeCore.Notification {
        Notification(id: id, request: NotificationRequest(appName: "Mail", summary: summary, body: "x"), sender: ":1.9",
                     created: .init(milliseconds: 0), updated: .init(milliseconds: 0), expires: nil)
    }

    static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1_000) }

    @Test func historyListsNewestFirstWithFiltersAndSurvivesARestart() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "Mail", "first mail", "x"])
        _ = try bus.run("notify-send", ["-a", "Chat", "a message", "x"])
        let id = try bus.run("notify-send", ["-p", "-a", "Mail", "second mail", "x"]).stdout
        #expect(try bus.chimectl("dismiss", id).status == 0)
        let all = try bus.chimectl("history").stdout.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) }
        #expect(all == ["second mail", "a message", "first mail"])
        #expect(try bus.chimectl("history", "--app", "Chat").stdout.hasSuffix("a message"))
        #expect(try bus.chimectl("history", "--state", "dismissed").stdout.hasSuffix("second mail"))
        #expect(try bus.chimectl("history", "--limit", "1").stdout.split(separator: "\n").count == 1)
        try bus.restartChimed()
        #expect(try bus.chimectl("history").stdout.split(separator: "\n").count == 3)
        let next = try bus.run("notify-send", ["-p", "after restart", "x"]).stdout
        #expect(Int(next) == 4, "ids continue past the highest stored")
        let json = try bus.chimectl("history", "--json", "--limit", "1").stdout
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(parsed?.first?["summary"] as? String == "after restart")
    }

    /// Times as people read them, in the zone `TZ` names: history's second column is the time of
    /// day for today's notifications and the day and time for older ones; show gives every field,
    /// and a Focus on for days says on which day it ends. The expected texts come from Foundation.
    @Test func historyShowAndFocusGiveTimesInTheLocalZone() throws {
        let bus = try TestBus(daemon: false)
        let now = Self.nowMilliseconds
        let twoDaysAgo = now - 2 * 86_400_000
        do {
            let store = try Self.centerBeforeStart(bus).store
            store.record(Self.mail(7, "from two days ago"), wall: twoDaysAgo)
            store.commit()
        }
        try bus.startDaemon()
        let id = try bus.run("notify-send", ["-p", "-a", "Chat", "just now", "x"]).stdout
        let created = try #require(try Self.json(bus.chimectl("show", id, "--json").stdout)["created"] as? Int)
        func text(_ milliseconds: Int, _ format: String, _ zone: String) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: zone)
            formatter.dateFormat = format
            return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1_000))
        }
        /// The day and time, with the year where it is not this one (as around New Year).
        func dayText(_ milliseconds: Int, _ zone: String) -> String {
            let sameYear = text(milliseconds, "yyyy", zone) == text(Int(now), "yyyy", zone)
            return text(milliseconds, sameYear ? "MMM d HH:mm" : "yyyy-MM-dd HH:mm", zone)
        }
        for (tz, zone) in [("UTC0", "UTC"), ("JST-9", "Asia/Tokyo")] {
            let lines = try bus.chimectl(timeZone: tz, "history").stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
            #expect(lines.map { $0.first } == [id, "7"])
            #expect(lines.first?[1] == text(created, "HH:mm", zone), "\(tz): \(lines)")
            #expect(lines.last?[1] == dayText(Int(twoDaysAgo), zone), "\(tz): \(lines)")
            let shown = try bus.chimectl(timeZone: tz, "show", id).stdout
            #expect(shown.contains("\ncreated: \(text(created, "yyyy-MM-dd HH:mm:ss", zone))\n"), "\(tz): \(shown)")
        }
        #expect(try bus.chimectl("focus", "on", "dnd", "--for", "2d").status == 0)
        let until = try #require(try Self.json(bus.chimectl("focus", "status", "--json").stdout)["until"] as? Int)
        let status = try bus.chimectl(timeZone: "UTC0", "focus", "status").stdout
        #expect(status == "Focus: Do Not Disturb (manual), until \(dayText(until, "UTC"))", "\(status)")
    }

    private static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `--since 2h` lists what came in the last two hours; a duration it cannot read is a usage error.
    @Test func historySinceListsOnlyWhatCameSince() throws {
        let bus = try TestBus(daemon: false)
        do {
            let store = try Self.centerBeforeStart(bus).store
            store.record(Self.mail(1, "three hours ago"), wall: Self.nowMilliseconds - 3 * 3_600_000)
            store.commit()
        }
        try bus.startDaemon()
        _ = try bus.run("notify-send", ["-a", "Mail", "just now", "x"])
        let summaries = { (arguments: [String]) in
            try bus.run(TestBus.chimectl, ["history"] + arguments).stdout.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) }
        }
        #expect(try summaries([]) == ["just now", "three hours ago"])
        #expect(try summaries(["--since", "2h"]) == ["just now"])
        #expect(try summaries(["--since", "4h"]) == ["just now", "three hours ago"])
        let bad = try bus.chimectl("history", "--since", "lately")
        #expect(bad.status == 2 && bad.stderr.contains("--since takes a duration such as 30m, 2h or 7d, not 'lately'"))
    }

    /// SQLite's log is the one log: after a burst the state folder holds the center's files and
    /// nothing else that is a log of calls, and the logs an older chimed kept beside it are gone.
    @Test func afterABurstTheStateFolderHoldsOnlyTheCentersFiles() throws {
        let bus = try TestBus(daemon: false)
        let state = bus.directory.appendingPathComponent("state/chime").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        for name in ["chime.db-intake", "chime.db-calls"] {
            #expect(FileManager.default.createFile(atPath: state + "/" + name, contents: Data(count: 65_536)))
        }
        try bus.startDaemon()
        let flooder = try bus.client()
        for index in 0..<500 {
            flooder.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "burst \(index)")))
        }
        #expect(flooder.waitUntil(timeout: 60) { flooder.replies.count == 500 })
        let files = try FileManager.default.contentsOfDirectory(atPath: state).sorted()
        #expect(files == ["apps.state", "chime.db", "chime.db-wal", "ids"], "\(files)")
    }

    /// A center an older chimed left, with SQLite's pages at 1 KB: chimed rewrites it once with
    /// 4 KB pages as it starts, and its history is all there.
    @Test func anOlderChimedsCenterGetsLargerPagesAndKeepsItsHistory() throws {
        let bus = try TestBus(daemon: false)
        let path: String
        do {
            let (store, made) = try Self.centerBeforeStart(bus)
            path = made
            store.record(Self.mail(7, "from before the upgrade"), wall: Self.nowMilliseconds)
            store.commit()
            store.resizePages(to: 1024)
        }
        /// The page size in the file's header: two bytes, big-endian, at offset 16.
        func pageSize() throws -> Int {
            let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(18)
            return Int(header[16]) << 8 | Int(header[17])
        }
        #expect(try pageSize() == 1024)
        try bus.startDaemon()
        #expect(try bus.chimectl("history").stdout.hasSuffix("from before the upgrade"))
        #expect(try pageSize() == 4096)
        #expect(try bus.run("notify-send", ["-p", "after the upgrade", "x"]).stdout == "8", "ids continue past it")
        try bus.restartChimed()
        #expect(try bus.chimectl("history").stdout.split(separator: "\n").count == 2)
        #expect(!bus.daemonLog.contains("page"), "\(bus.daemonLog)")
    }

    /// An app that closes its notification a moment after sending it, then a chimed killed before
    /// SQLite took either: the close was acknowledged, so the next chimed has the notification
    /// closed by the app, not still unread.
    @Test func aCloseRightAfterItsNotifySurvivesKill9() throws {
        let bus = try TestBus()
        let client = try bus.client()
        let id = try client.notify(app: "Mail", summary: "sent, then closed")
        _ = try client.call("CloseNotification", [.uint32(id)])
        bus.daemon?.signal(SIGKILL)  // well inside the quarter second before SQLite takes the rows
        _ = bus.daemon?.wait(timeout: 10)
        try bus.startDaemon()
        #expect(try bus.chimectl("history", "--state", "closed").stdout.hasSuffix("sent, then closed"))
        #expect(try bus.chimectl("history", "--state", "unread").stdout.contains("sent, then closed") == false,
                "closed by the app: read")
    }

    /// Banners up when chimed stops are gone with it: the next chimed records each as what it is,
    /// closed and still unread, whether the last one was killed or stopped; a critical banner,
    /// which never ends on its own, is presented again.
    @Test(arguments: [SIGKILL, SIGTERM])
    func whatWasOnScreenWhenChimedStoppedIsClosedAfterAndCriticalComesBack(_ stop: Int32) throws {
        let bus = try TestBus()
        #expect(try bus.chimectl("apps", "set", "battery", "critical-alerts=true").status == 0)
        let banner = try bus.run("notify-send", ["-p", "-a", "Mail", "on screen", "x"]).stdout
        let quiet = try bus.run("notify-send", ["-p", "-u", "low", "-a", "Mail", "quiet", "x"]).stdout
        let critical = try bus.run("notify-send", ["-p", "-a", "battery", "-h", "string:x-chime-interruption-level:critical",
                                                   "Battery at 3%", "x"]).stdout
        let client = try bus.client()
        #expect(client.waitUntil(timeout: 3) { (try? bus.chimectl("history", "--state", "presented").stdout.contains("on screen")) == true })
        bus.daemon?.signal(stop)
        _ = bus.daemon?.wait(timeout: 10)
        try bus.startDaemon()
        for id in [banner, quiet] {
            let shown = try bus.chimectl("show", id).stdout
            #expect(shown.contains("\nopen: no\n") && shown.contains("\nstate: closed\n") && shown.contains("\nunread: yes\n"), "\(shown)")
        }
        let presented = try bus.chimectl("history", "--state", "presented").stdout
        #expect(!presented.contains("on screen") && presented.contains("Battery at 3%"), "\(presented)")
        #expect(try bus.chimectl("list").stdout.contains("Battery at 3%"), "the critical banner is up again")
        #expect(try bus.chimectl("show", critical).stdout.contains("\nopen: yes\n"))
    }

    /// SQLite has a notification before its app has the id: the WAL holds it when notify-send
    /// returns, well before the five-second checkpoint, and a chimed killed then loses none.
    @Test func theCenterHasANotificationBeforeItsAppHasTheId() throws {
        let bus = try TestBus()
        let wal = bus.directory.appendingPathComponent("state/chime/chime.db-wal").path
        func walSize() -> Int { (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0 }
        var before = walSize()
        for summary in ["one", "two", "three"] {
            _ = try bus.run("notify-send", ["-a", "Mail", summary, "x"])
            #expect(walSize() > before, "answered before SQLite had it")
            before = walSize()
        }
        bus.daemon?.signal(SIGKILL)
        _ = bus.daemon?.wait(timeout: 10)
        try bus.startDaemon()
        #expect(try bus.chimectl("history").stdout.split(separator: "\n").count == 3)
    }

    @Test(arguments: [["history", "--state", "lost"], ["history", "--limit", "0"], ["history", "--limit", "many"], ["history", "--app"]])
    func badFiltersExit2(arguments: [String]) throws {
        let bus = try TestBus()
        let result = try bus.run(TestBus.chimectl, arguments)
        #expect(result.status == 2, "\(arguments)")
    }

    @Test func whatChimedAcknowledgedSurvivesKill9() throws {
        // Retention above the burst, so the restart's pruning does not take what this checks.
        let bus = try TestBus(config: "[general]\nhistory-max = 100000\n")
        let flooder = try bus.client()
        for index in 0..<5_000 {
            flooder.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "burst \(index)")))
        }
        // Kill chimed in the middle of the burst, once some replies are in.
        #expect(flooder.waitUntil(timeout: 60) { flooder.replies.count >= 1_500 })
        bus.daemon?.signal(SIGKILL)
        _ = bus.daemon?.wait(timeout: 10)
        flooder.waitUntil(timeout: 1) { false }  // collect the replies already on the wire
        let acknowledged = Set(flooder.replies.filter { $0.kind == .methodReturn }.compactMap { $0.arguments.first?.integer })
        #expect(acknowledged.count >= 1_500)
        try bus.startDaemon()
        let stored = try bus.client().call("History", [.vardict([("limit", .uint32(10_000))])],
                                           interface: "dev.chime.Chime1", path: "/dev/chime/Chime1", destination: "dev.chime.Chime1")
        guard case .array(_, let items)? = stored.first else { Issue.record("no history"); return }
        let ids = Set(items.compactMap { $0.vardictEntries?["id"]?.integer })
        #expect(acknowledged.isSubset(of: ids), "\(acknowledged.subtracting(ids).count) acknowledged ids are missing")
    }
}

/// The store's disk filling up under chimed: what it cannot keep is refused, and said once.
@Suite struct FullDiskTests {
    @Test func aFullDiskRefusesWhatItCannotKeepAndIsLoggedOnce() throws {
        // Every notification runs a hook: one refused must not (nor make a sound).
        let bus = try TestBus(daemon: false, config: "[rule mark]\nmatch-app = .\nexec = touch \"$HOME/hook-$CHIME_ID\"\n")
        let state = bus.directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        // chimed's state folder on a 192 KB tmpfs in a mount namespace of its own, so the disk
        // under the store really fills (ENOSPC). Where namespaces are not allowed, a file-size
        // limit makes the same writes fail.
        let canMount = try bus.run("unshare", ["-rm", "true"]).status == 0
        let script = canMount ? "mount -t tmpfs -o size=192k tmpfs \"$1\" && exec \"$2\"" : "ulimit -f 384 && exec \"$2\""
        let daemon = try bus.start(canMount ? "/usr/bin/unshare" : "/bin/sh",
                                   (canMount ? ["-rm", "/bin/sh"] : []) + ["-c", script, "sh", state.path, TestBus.chimed])
        defer { daemon.signal(SIGTERM); _ = daemon.wait(timeout: 5) }
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("serving") } != nil, "\(daemon.stderr)")

        let client = try bus.client()
        let body = String(repeating: "a long body that fills the disk ", count: 40)
        var ids: [UInt32] = []
        var refused = 0
        for index in 0..<400 {
            do throws(BusError) {
                ids.append(try client.notify(app: "app\(index % 50)", summary: "note \(index)", body: body))
            } catch {
                #expect(error.name == BusError.ioError, "\(error)")
                refused += 1
            }
        }
        #expect(refused > 0 && Set(ids).count == ids.count, "refused what it could not keep; every other Notify got its own id")
        let open = Set(try client.list().compactMap { $0["id"]?.integer.map(UInt32.init) })
        #expect(!open.isEmpty && open.isSubset(of: Set(ids)), "what was answered is still presented; nothing refused is")
        let hooked = { Set(((try? FileManager.default.contentsOfDirectory(atPath: bus.directory.path)) ?? [])
            .filter { $0.hasPrefix("hook-") }.compactMap { UInt32($0.dropFirst(5)) }) }
        client.waitUntil(timeout: 5) { ids.last.map(hooked().contains) ?? true }
        #expect(!hooked().isEmpty && hooked().isSubset(of: Set(ids)), "\(hooked().subtracting(ids).sorted()) refused yet hooked")
        #expect(daemon.isRunning)
        daemon.signal(SIGTERM)
        _ = daemon.wait(timeout: 10)
        daemon.drain()
        let complaints = daemon.stderrLines.filter { $0.contains("chime.db") }
        #expect(complaints.count == 1, "\(complaints)")
        #expect(complaints.first?.contains(canMount ? "is full" : "cannot") == true)
    }
}

/// chimed --no-history: the center in memory only.
@Suite struct NoHistoryTests {
    @Test func withoutHistoryNothingIsWrittenAndHistorySaysWhy() throws {
        let bus = try TestBus(arguments: ["--no-history"])
        let id = try bus.client().notify(summary: "kept in memory")
        #expect(try bus.chimectl("list").stdout.contains("kept in memory"))
        #expect(try bus.chimectl("show", "\(id)").stdout.contains("summary: kept in memory"), "open ones still show")
        let history = try bus.chimectl("history")
        #expect(history.status == 1 && history.stderr.contains("keeps no history"))
        #expect(!FileManager.default.fileExists(atPath: bus.directory.appendingPathComponent("state/chime/chime.db").path))
    }
}
