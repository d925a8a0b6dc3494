import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// The attention model through real clients: notify-send sends, chimectl drives Focus and apps,
/// `chimectl watch` shows what was presented and the control interface what was held.
@Suite struct AttentionBusTests {
    static let config = """
    # Test config
    [focus work]
    allowed-apps = Slack
    allowed-people = Ada Lovelace
    allow-time-sensitive = true

    [focus sleep]
    allow-time-sensitive = false
    """

    func state(of summary: String, in client: TestClient) throws -> String? {
        try client.list().first { $0["summary"]?.string == summary }?["state"]?.string
    }

    @Test func urgenciesBecomeLevels() throws {
        let bus = try TestBus()
        let watcher = try Watcher(bus: bus)
        _ = try bus.run("notify-send", ["-a", "App", "-u", "low", "quiet one", "x"])
        _ = try bus.run("notify-send", ["-a", "App", "-u", "critical", "urgent one", "x"])
        let urgent = watcher.presented(containing: "urgent one")
        #expect(urgent?["level"] as? String == "time-sensitive")
        let client = try bus.client()
        #expect(try state(of: "quiet one", in: client) == "quiet")
        #expect(watcher.allPresented(containing: "quiet one").isEmpty, "passive notifications get no banner")
    }

    @Test func focusHoldsWhatItDoesNotAllowAndSummarisesAtTheEnd() throws {
        let bus = try TestBus(config: Self.config)
        let watcher = try Watcher(bus: bus)
        #expect(try bus.chimectl("focus", "on", "work").status == 0)
        _ = try bus.run("notify-send", ["-a", "Mail", "held mail", "x"])
        _ = try bus.run("notify-send", ["-a", "Slack", "slack message", "x"])
        _ = try bus.run("notify-send", ["-a", "Calendar", "-u", "critical", "meeting now", "x"])
        _ = try bus.run("notify-send", ["-a", "Chat", "-c", "im.received", "Ada Lovelace", "hi there"])
        _ = try bus.run("notify-send", ["-a", "Chat", "-c", "im.received", "Eve", "psst"])
        #expect(watcher.presented(containing: "slack message") != nil)
        #expect(watcher.presented(containing: "meeting now") != nil)
        #expect(watcher.presented(containing: "hi there") != nil)
        let client = try bus.client()
        #expect(try state(of: "held mail", in: client) == "held-by-focus")
        #expect(try state(of: "Eve", in: client) == "held-by-focus")
        #expect(try bus.chimectl("focus", "off").status == 0)
        let summary = watcher.presented(containing: "While Work was on")
        #expect(summary?["body"] as? String == "2 notifications from 2 apps")
        #expect(watcher.allPresented(containing: "held mail").isEmpty)
        let shown = try bus.chimectl("invoke", "\((summary?["id"] as? Int) ?? 0)", "chime:show-held")
        #expect(shown.status == 0, "\(shown)")
        let listing = watcher.presented(containing: "Held while Work was on: 2 notifications")
        #expect((listing?["body"] as? String)?.contains("held mail") == true, "\(String(describing: listing))")
        #expect(try state(of: "held mail", in: client) != "held-by-focus", "held notifications go quietly to the center")
        #expect(client.waitUntil(timeout: 15) { (try? state(of: "held mail", in: client)) == nil },
                "and end for their apps at their timeouts")
    }

    @Test func aFocusWithoutTimeSensitiveHoldsIt() throws {
        let bus = try TestBus(config: Self.config)
        #expect(try bus.chimectl("focus", "on", "sleep").status == 0)
        _ = try bus.run("notify-send", ["-a", "Calendar", "-u", "critical", "meeting now", "x"])
        #expect(try state(of: "meeting now", in: bus.client()) == "held-by-focus")
    }

    @Test func focusStatusListAndTimedFocus() throws {
        let bus = try TestBus(config: Self.config)
        let list = try bus.chimectl("focus", "list")
        #expect(list.stdout.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) } == ["dnd", "sharing", "fullscreen", "work", "sleep"])
        #expect(try bus.chimectl("focus", "status").stdout == "Focus: off")
        #expect(try bus.chimectl("focus", "on", "work", "--for", "45m").status == 0)
        let json = try bus.chimectl("focus", "status", "--json").stdout
        let status = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(status["active"] as? String == "work")
        #expect(status["source"] as? String == "manual")
        let until = try #require(status["until"] as? Int)
        let expected = Int(Date().timeIntervalSince1970 * 1000) + 45 * 60_000
        #expect(abs(until - expected) < 60_000)
        #expect(try bus.chimectl("focus", "status").stdout.hasPrefix("Focus: Work (manual), until "))
        #expect(try bus.chimectl("focus", "on", "work", "--until", "23:59").status == 0)
    }

    @Test(arguments: [["focus", "on", "gym"], ["focus", "on", "work", "--until", "25:00"], ["focus", "on", "work", "--for", "soon"],
                      ["focus", "frob"], ["dnd", "maybe"], ["apps", "show", "nobody"], ["apps", "set", "nobody", "banners=maybe"],
                      ["summary", "later"]])
    func unknownNamesAndBadValuesExit2(arguments: [String]) throws {
        let bus = try TestBus(config: Self.config)
        let result = try bus.run(TestBus.chimectl, arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func unknownFocusSaysWhichExist() throws {
        let bus = try TestBus(config: Self.config)
        let result = try bus.chimectl("focus", "on", "gym")
        #expect(result.stderr.contains("no Focus named 'gym'; Focus modes: dnd, sharing, fullscreen, work, sleep"))
    }

    @Test func dndTogglesAndAnnouncesFocusChangedAndTheProperty() throws {
        let bus = try TestBus()
        let client = try bus.client()
        try client.listen("type='signal',interface='dev.chime.Chime1',member='FocusChanged'")
        #expect(try bus.chimectl("dnd", "on").status == 0)
        #expect(client.waitUntil { !client.signals(named: "FocusChanged").isEmpty })
        #expect(client.signals(named: "FocusChanged").first?.arguments.first == .string("dnd"))
        let property = try bus.run("gdbus", ["call", "--session", "--dest", "dev.chime.Chime1", "--object-path", "/dev/chime/Chime1",
                                             "--method", "org.freedesktop.DBus.Properties.Get", "dev.chime.Chime1", "ActiveFocus"])
        #expect(property.stdout == "(<'dnd'>,)")
        #expect(try bus.chimectl("dnd", "toggle").status == 0)
        #expect(client.waitUntil { client.signals(named: "FocusChanged").count == 2 })
        #expect(client.signals(named: "FocusChanged").last?.arguments.first == .string(""))
    }

    @Test func inhibitHoldsTheFocusWhileTheCommandRuns() throws {
        let bus = try TestBus(config: Self.config)
        let result = try bus.run(TestBus.chimectl, ["focus", "inhibit", "work", "--", TestBus.chimectl, "focus", "status"])
        #expect(result.status == 0)
        #expect(result.stdout == "Focus: Work (inhibitor)")
        #expect(try bus.chimectl("focus", "status").stdout == "Focus: off")
        let failing = try bus.run(TestBus.chimectl, ["focus", "inhibit", "--", "/bin/sh", "-c", "exit 3"])
        #expect(failing.status == 3, "the command's status is chimectl's")
        let missing = try bus.run(TestBus.chimectl, ["focus", "inhibit", "--", "no-such-command"])
        #expect(missing.status == 127 && missing.stderr.contains("cannot run no-such-command"), "\(missing)")
        #expect(try bus.chimectl("focus", "status").stdout == "Focus: off", "the inhibitor is let go")
    }

    @Test func anInhibitorEndsWhenItsClientLeavesTheBus() throws {
        let bus = try TestBus()
        let watcherClient = try bus.client()
        try watcherClient.listen("type='signal',interface='dev.chime.Chime1',member='FocusChanged'")
        do {
            let holder = try bus.client()
            let cookie = try holder.control("Inhibit", [.string("obs"), .string("recording"), .vardict([])])
            #expect(cookie.first?.integer ?? 0 > 0)
        }  // the holder's connection closes here
        #expect(watcherClient.waitUntil { watcherClient.signals(named: "FocusChanged").count == 2 })
        #expect(try bus.chimectl("focus", "status").stdout == "Focus: off")
    }

    @Test func appSettingsChangeDeliveryAndSurviveARestart() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "News", "first", "x"])
        #expect(try bus.chimectl("apps", "list").stdout.contains("News\tallowed\timmediate\ttrue\ttrue"))
        #expect(try bus.chimectl("apps", "set", "News", "banners=false").status == 0)
        _ = try bus.run("notify-send", ["-a", "News", "second", "x"])
        #expect(try state(of: "second", in: bus.client()) == "quiet")
        try bus.restartChimed()
        #expect(try bus.chimectl("apps", "show", "News").stdout.contains("banners = false"))
        let bad = try bus.chimectl("apps", "set", "News", "banners=maybe")
        #expect(bad.status == 2 && bad.stderr.contains("'maybe' is not true or false"))
    }

    /// An app's name may hold what a GKeyFile group's may not (`]`, ESC, `%`): its settings are
    /// kept all the same, with no GLib-CRITICAL in the log.
    @Test(arguments: ["a]b", "x\u{1B}[31my", "100% [beta]"])
    func appsWithAnyNameKeepTheirSettings(_ name: String) throws {
        let bus = try TestBus()
        _ = try bus.client().notify(app: name, summary: "first")
        #expect(try bus.chimectl("apps", "set", name, "banners=false").status == 0)
        _ = try bus.chimectl("status")  // the state is saved after the call's turn
        #expect(!bus.daemonLog.contains("g_key_file"), "\(bus.daemonLog)")
        try bus.restartChimed()
        #expect(try bus.chimectl("apps", "show", name).stdout.contains("banners = false"))
    }

    /// `timeout` for an app, from the config or chimectl, closes its banners then (reason 1), over
    /// the minute notify-send asked for; `never` keeps one that asked for 300 ms.
    @Test func anAppsTimeoutFromTheConfigOrChimectlClosesItsBannersThen() throws {
        let bus = try TestBus(config: "[app Chat]\ntimeout = 300\n")
        let client = try bus.client()
        try client.listen()
        let chat = try bus.run("notify-send", ["-p", "-a", "Chat", "-t", "60000", "hi", "x"]).stdout
        #expect(client.waitUntil { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(UInt32(chat)!), .uint32(1)] } })
        #expect(try bus.chimectl("apps", "show", "Chat").stdout.contains("timeout = 300"))

        _ = try bus.run("notify-send", ["-a", "Mail", "first", "x"])  // chimectl sets apps it knows
        #expect(try bus.chimectl("apps", "set", "Mail", "timeout=never").status == 0)
        let mail = try bus.run("notify-send", ["-p", "-a", "Mail", "-t", "300", "kept", "x"]).stdout
        let other = try bus.run("notify-send", ["-p", "-a", "Other", "-t", "300", "goes", "x"]).stdout
        #expect(client.waitUntil { client.signals(named: "NotificationClosed").contains { $0.arguments.first == .uint32(UInt32(other)!) } })
        #expect(try client.list().contains { $0["id"] == .uint32(UInt32(mail)!) }, "Mail's banner stays")
        let bad = try bus.chimectl("apps", "set", "Mail", "timeout=5s")
        #expect(bad.status == 2 && bad.stderr.contains("'5s' is not a number of milliseconds, never or default"))
    }

    @Test func provisionalAppsAreQuietUntilKept() throws {
        let bus = try TestBus(config: "[general]\ndefault-authorization = provisional\n")
        let id = try bus.run("notify-send", ["-p", "-a", "Newcomer", "hello", "x"]).stdout
        let client = try bus.client()
        let first = try #require(try client.list().first { $0["summary"]?.string == "hello" })
        #expect(first["state"]?.string == "quiet")
        #expect(first["actions"]?.strings == [], "the app's own actions only")
        let shown = try bus.chimectl("show", id).stdout
        #expect(shown.contains("Newcomer is delivered quietly to the center until you choose. (Keep: chimectl invoke ID chime:keep; Turn Off: chimectl invoke ID chime:turn-off)"), "\(shown)")
        #expect(try bus.chimectl("invoke", id, "chime:keep").status == 0)
        #expect(try bus.chimectl("apps", "show", "Newcomer").stdout.contains("authorization = allowed"))
        _ = try bus.run("notify-send", ["-a", "Newcomer", "welcome", "x"])
        #expect(try state(of: "welcome", in: client) == "presented")
    }

    @Test func summaryAppsWaitAndSummaryNowDelivers() throws {
        let bus = try TestBus()
        let watcher = try Watcher(bus: bus)
        _ = try bus.run("notify-send", ["-a", "Digest", "setup", "x"])
        #expect(try bus.chimectl("apps", "set", "Digest", "delivery=summary").status == 0)
        _ = try bus.run("notify-send", ["-a", "Digest", "-h", "double:x-chime-relevance:0.2", "minor story", "x"])
        _ = try bus.run("notify-send", ["-a", "Digest", "-h", "double:x-chime-relevance:0.9", "major story", "x"])
        let waiting = try bus.chimectl("summary", "list")
        #expect(waiting.stdout.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) } == ["major story", "minor story"])
        #expect(try bus.chimectl("summary", "now").status == 0)
        let summary = watcher.presented(containing: "Scheduled Summary")
        #expect(summary?["body"] as? String == "<b>Digest: major story</b>\nDigest (1 more): minor story", "each said once")
        let empty = try bus.chimectl("summary", "list")
        #expect(empty.stdout.isEmpty && empty.stderr.contains("nothing is waiting for the summary"))
        #expect(try bus.chimectl("history", "--state", "summarized").stdout.split(separator: "\n").count == 2,
                "the center on disk knows they were delivered in the summary")
        let nothing = try bus.chimectl("summary", "now")
        #expect(nothing.status == 0 && nothing.stdout.isEmpty, "nothing waits: nothing to say")
    }

    /// What waits for the summary keeps its order across a restart: relevance, then newest.
    @Test func theSummaryKeepsItsOrderAcrossARestart() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "Digest", "setup", "x"])
        #expect(try bus.chimectl("apps", "set", "Digest", "delivery=summary").status == 0)
        for (summary, relevance) in [("old", nil), ("minor", 0.2), ("major", 0.9), ("new", nil)] as [(String, Double?)] {
            _ = try bus.run("notify-send", ["-a", "Digest"] + (relevance.map { ["-h", "double:x-chime-relevance:\($0)"] } ?? []) + [summary, "x"])
        }
        let order = { try bus.chimectl("summary", "list").stdout.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) } }
        #expect(try order() == ["major", "new", "old", "minor"])
        try bus.restartChimed()
        #expect(try order() == ["major", "new", "old", "minor"])
    }

    @Test func hiddenPreviewsRedactBannersButTheCenterKeepsTheText() throws {
        let bus = try TestBus(config: "[general]\npreviews = never\n")
        let watcher = try Watcher(bus: bus)
        _ = try bus.run("notify-send", ["-a", "Signal", "-c", "im.received", "Ada", "the launch code is 1234"])
        let banner = try #require(watcher.presented(containing: "Signal"))
        #expect(banner["summary"] as? String == "Signal")
        #expect(banner["body"] as? String == "New message")
        #expect(banner["redacted"] as? Bool == true)
        #expect(try bus.client().list().contains { $0["body"]?.string == "the launch code is 1234" })
    }

    @Test func withoutLogindTheSessionCountsAsUnlockedAndTheLogSaysSoOnce() throws {
        let bus = try TestBus(config: "[general]\npreviews = when-unlocked\n")
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("the session counts as unlocked") } != nil)
        let watcher = try Watcher(bus: bus)
        _ = try bus.run("notify-send", ["-a", "Mail", "visible subject", "x"])
        let visible = watcher.presented(containing: "visible subject")
        #expect(visible != nil && visible?["redacted"] == nil)
        daemon.drain()
        #expect(daemon.stderrLines.filter { $0.contains("counts as unlocked") }.count == 1)
    }
}

/// Hidden previews follow logind's LockedHint.
@Suite struct LockStateTests {
    @Test func previewsHideWhileLockedAndShowOnceUnlocked() throws {
        let bus = try TestBus(daemon: false, config: "[general]\npreviews = when-unlocked\n", systemBus: true)
        let logind = try FakeLogind(address: bus.systemAddress, locked: true)
        defer { logind.stop() }
        try bus.startDaemon()
        let watcher = try Watcher(bus: bus)
        let client = try bus.client()
        // The first answer arrives asynchronously: wait until a banner comes out redacted.
        var redacted = false
        #expect(client.waitUntil {
            _ = try? client.notify(app: "Mail", summary: "secret subject", timeout: 0)
            redacted = watcher.presented(containing: "\"Mail\"", timeout: 0.3)?["redacted"] as? Bool == true
            return redacted
        })
        logind.setLocked(false)
        var shown = false
        #expect(client.waitUntil {
            _ = try? client.notify(app: "Mail", summary: "open subject", timeout: 0)
            shown = watcher.presented(containing: "open subject", timeout: 0.3) != nil
            return shown
        })
        #expect(!bus.daemonLog.contains("counts as unlocked"))
    }

    /// While logind says the session is idle, or locked, banners do not expire (checked for a
    /// bounded while: what must not happen); once it is active again they do, with reason 1.
    @Test func bannersWaitWhileTheSessionIsIdleOrLockedAndExpireOnceItIsActive() throws {
        let bus = try TestBus(daemon: false, systemBus: true)
        let logind = try FakeLogind(address: bus.systemAddress, locked: false, idle: true)
        defer { logind.stop() }
        try bus.startDaemon()
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("the session is idle; banners wait") } != nil)
        let client = try bus.client()
        try client.listen()
        func closed(_ id: UInt32) -> Bool { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(id), .uint32(1)] } }

        let whileIdle = try client.notify(summary: "while idle", timeout: 200)
        #expect(!client.waitUntil(timeout: 1) { closed(whileIdle) }, "no banner expires while the session is idle")
        logind.setIdle(false)
        #expect(client.waitUntil { closed(whileIdle) })

        logind.setLocked(true)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("the session is locked; banners wait") } != nil)
        let whileLocked = try client.notify(summary: "while locked", timeout: 200)
        #expect(!client.waitUntil(timeout: 1) { closed(whileLocked) }, "nor while it is locked")
        logind.setLocked(false)
        #expect(client.waitUntil { closed(whileLocked) })
    }
}
