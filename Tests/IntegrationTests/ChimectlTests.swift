import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

@Suite struct ChimectlTests {
    @Test func withoutADaemonCommandsSaySoAndExit1() throws {
        let bus = try TestBus(daemon: false)
        let result = try bus.chimectl("list")
        #expect(result.status == 1)
        #expect(result.stderr.contains("chimed is not running"))
    }

    /// A mistake in a command's arguments shows that command's usage under the message; with no
    /// command, or one chimectl does not know, the whole usage.
    @Test(arguments: [(["frobnicate"], "usage: chimectl COMMAND"), ([], "usage: chimectl COMMAND"),
                      (["invoke", "abc"], "\n  invoke [ID [KEY]]"), (["restore", "x"], "\n  restore [ID]"),
                      (["dismiss", "1", "2"], "\n  dismiss [ID | --all | --app APP]"), (["list", "--bogus"], "\n  list [--json]"),
                      (["reply", "3"], "\n  reply ID TEXT"), (["focus", "on"], "\n  focus on NAME [--for DURATION | --until HH:MM]\n")])
    func badArgumentsPrintUsageAndExit2(arguments: [String], usage: String) throws {
        let bus = try TestBus(daemon: false)
        let result = try bus.run(TestBus.chimectl, arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("chimectl: "), "the mistake comes first: \(result.stderr)")
        #expect(result.stderr.contains(usage), "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").count
        #expect(arguments.first == nil || arguments.first == "frobnicate" ? lines > 30 : lines < 8, "\(result.stderr)")
    }

    /// `chimectl list` says when each open notification came, in local time as `history` does
    /// (`21:38` today), from the record's `created` (unix milliseconds, the wall clock's).
    @Test func listSaysWhenEachNotificationCame() throws {
        let bus = try TestBus()
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try bus.client().notify(summary: "when", timeout: 0)
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        let json = try bus.chimectl("list", "--json").stdout
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let created = try #require(parsed.first?["created"] as? Int64, "\(json)")
        #expect((before...after).contains(created), "\(before) <= \(created) <= \(after)")
        let row = try bus.chimectl("list").stdout.split(separator: "\t").map(String.init)
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        #expect(row.count > 1 && row[1] == formatter.string(from: Date(timeIntervalSince1970: Double(created) / 1000)), "\(row)")
    }

    /// An app's text reaches the terminal without its control characters: an escape sequence in
    /// a summary would otherwise be a command to the terminal, and a tab in an app name would
    /// shift the columns. `--json` keeps every character.
    @Test func controlCharactersInAnAppsTextNeverReachTheTerminal() throws {
        let bus = try TestBus()
        let summary = "title\u{1B}]0;owned\u{07} and\ttab\u{9B}2J \u{202E}txt.exe\u{2066}"
        _ = try bus.client().notify(app: "Tab\tApp\u{1B}[31m", summary: summary, body: "one\ntwo\u{1B}[2J", actions: ["k\u{1B}", "K"])
        for command in [["list"], ["history"], ["show", "1"], ["badges"], ["apps", "list"]] {
            let output = try bus.run(TestBus.chimectl, command).stdout
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value)
                        || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) },
                    "\(command): \(output.debugDescription)")
        }
        let list = try bus.chimectl("list").stdout
        #expect(list.split(separator: "\t", omittingEmptySubsequences: false).count == 8,
                "id, time, app, level, state, unread, summary, actions: \(list.debugDescription)")
        #expect(try bus.chimectl("history").stdout.split(separator: "\t", omittingEmptySubsequences: false).count == 7)
        #expect(try bus.chimectl("show", "1").stdout.contains("body: one\ntwo\u{FFFD}[2J"), "line breaks stay in show")
        let json = try bus.chimectl("list", "--json").stdout
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(parsed?.first?["summary"] as? String == summary)
        // chimed's log, which quotes an app's name beside what was wrong with its call.
        _ = try bus.client().notify(app: "Forged\nchimed: serving nothing\u{1B}[2J", icon: "/no/such/icon.png", summary: "x")
        let client = try bus.client()
        #expect(client.waitUntil { bus.daemonLog.contains("/no/such/icon.png") })
        #expect(!bus.daemonLog.contains("\u{1B}") && !bus.daemonLog.contains("\nchimed: serving nothing"), "\(bus.daemonLog.debugDescription)")
    }

    /// To a terminal (here `script`'s pseudo-terminal), listings come under a header with their
    /// columns lined up, wide characters counted as two columns; to a pipe they stay
    /// tab-separated with no header, as scripts read them.
    @Test func listingsLineUpUnderAHeaderOnATerminalAndStayTabSeparatedInAPipe() throws {
        // A schedule two days from today, so the Focus never holds these notifications, whenever the
        // test runs (a fixed Monday held them on Mondays).
        let day = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][(Calendar.current.component(.weekday, from: Date()) + 1) % 7]
        let schedule = "\(day) 09:00-17:00"
        let bus = try TestBus(config: "[focus work]\nschedule = \(schedule)\n")
        _ = try bus.client().notify(app: "微信", summary: "你好", actions: ["reply", "Reply"])
        _ = try bus.client().notify(app: "Mail", summary: "Hello")
        #expect(try bus.chimectl("dnd", "on").status == 0)
        /// Where `text` starts on `line`, in terminal columns.
        func column(of text: String, in line: Substring) throws -> Int {
            let start = try #require(line.range(of: text)?.lowerBound, "\(text) in \(line)")
            return line[..<start].unicodeScalars.reduce(0) { $0 + ((0x4E00...0x9FFF).contains($1.value) ? 2 : 1) }
        }
        let listings: [(command: String, rows: [KeyValuePairs<String, String>])] = [
            ("list", [["APP": "微信", "LEVEL": "active", "STATE": "presented", "SUMMARY": "你好", "ACTIONS": "[reply]"],
                      ["APP": "Mail", "SUMMARY": "Hello"]]),
            ("history", [["APP": "微信", "LEVEL": "active", "SUMMARY": "你好"], ["APP": "Mail", "STATE": "presented"]]),
            ("apps list", [["APP": "微信", "AUTHORIZATION": "allowed", "DELIVERY": "immediate", "BANNERS": "true"],
                           ["APP": "Mail", "DELIVERY": "immediate"]]),
            ("badges", [["APP": "微信", "UNREAD": "1"], ["APP": "Mail", "UNREAD": "1"]]),
            ("focus list", [["FOCUS": "work", "SCHEDULE": schedule], ["FOCUS": "dnd"]]),
        ]
        for listing in listings {
            let output = try bus.run("script", ["-qec", "\(TestBus.chimectl) \(listing.command)", "/dev/null"]).stdout
            let lines = output.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
            let header = try #require(lines.first, "\(listing.command): \(output.debugDescription)")
            #expect(!header.hasSuffix(" "), "\(header.debugDescription)")
            for cells in listing.rows {
                let first = cells.first!.value
                let row = try #require(lines.dropFirst().first { $0.contains(first) }, "\(listing.command): \(first)")
                for (name, cell) in cells {
                    #expect(try column(of: cell, in: row) == column(of: name, in: header), "\(listing.command): \(cell) under \(name):\n\(output)")
                }
            }
            let piped = try bus.run(TestBus.chimectl, listing.command.split(separator: " ").map(String.init)).stdout
            #expect(!piped.contains(listing.rows[0].first!.key), "no header in a pipe: \(piped)")
            #expect(piped.contains("\t" + listing.rows[0].dropFirst().first!.value), "tab-separated in a pipe: \(piped.debugDescription)")
        }
        let focusList = try bus.run("script", ["-qec", "\(TestBus.chimectl) focus list", "/dev/null"]).stdout
        let dnd = try #require(focusList.replacingOccurrences(of: "\r", with: "").split(separator: "\n").first { $0.hasPrefix("dnd") })
        #expect(try column(of: "(active)", in: dnd) == "FOCUS       SCHEDULE         ".count, "after the widest schedule: \(dnd)")
        // In a pipe the schedule keeps its column when empty, so "(active)" is always the third.
        #expect(try bus.chimectl("focus", "list").stdout.split(separator: "\n").contains("dnd\t\t(active)"))
    }

    /// Without a display chimed says in its log, once, why there are no banners and what to do,
    /// and `status` says so; with banners turned off in the config it says that, and the log
    /// says nothing.
    @Test func statusSaysWhyThereAreNoBanners() throws {
        let bus = try TestBus()
        #expect(try bus.chimectl("status").stdout.contains("banners: none: chimed has no display"))
        let json = try bus.chimectl("status", "--json").stdout
        #expect(json.contains("\"banners\":\"no-display\""), "\(json)")
        #expect(try bus.chimectl("reload").status == 0)
        let daemon = try #require(bus.daemon)
        daemon.drain()
        #expect(daemon.stderrLines.filter { $0.contains("no display") && $0.contains("dbus-update-activation-environment --systemd") }.count == 1)

        let off = try TestBus(config: "[popups]\nenabled = false\n")
        #expect(try off.chimectl("status").stdout.contains("banners: off ([popups] enabled = false)"))
        #expect(!off.daemonLog.contains("no display"))
    }

    @Test func statusAndListShowWhatIsOpen() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "Mail", "-u", "critical", "New mail", "from Ada"])
        let status = try bus.chimectl("status")
        #expect(status.status == 0)
        // The mail alone: Chime's one-time word on what time-sensitive means is on it.
        #expect(status.stdout.contains("open notifications: 1"))
        #expect(status.stdout.contains("unread in the center: 1"))
        let rows = try bus.chimectl("list").stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        // The second column, when each came, is the local time (listSaysWhenEachNotificationCame).
        #expect(rows.allSatisfy { $0.count > 1 && $0[1].count == 5 && $0[1].dropFirst(2).hasPrefix(":") }, "\(rows)")
        let withoutTimes = rows.map { ([$0[0]] + $0.dropFirst(2)).joined(separator: "\t") }.joined(separator: "\n")
        #expect(withoutTimes.hasPrefix("1\tMail\ttime-sensitive\tpresented\tunread\tNew mail"), "\(withoutTimes)")
        #expect(!withoutTimes.contains("Chime"))
        let shown = try bus.chimectl("show", "1").stdout
        #expect(shown.contains("offers: \n  Time-Sensitive: Mail may break through Focus") && shown.contains("chime:time-sensitive-off"), "\(shown)")
        let json = try bus.chimectl("list", "--json")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.first?["summary"] as? String == "New mail")
        #expect(parsed?.first?["id"] as? Int == 1)
        #expect(parsed?.first?["urgency"] as? Int == 2)
    }

    @Test func dismissClosesWithReason2() throws {
        let bus = try TestBus()
        let client = try bus.client()
        try client.listen()
        let id = try client.notify(timeout: 0)
        #expect(try bus.chimectl("dismiss", "\(id)").status == 0)
        #expect(client.waitUntil { !client.signals(named: "NotificationClosed").isEmpty })
        #expect(client.signals(named: "NotificationClosed").first?.arguments == [.uint32(id), .uint32(2)])
        // Closed, it is still in the center: dismissing it again marks it dismissed there.
        #expect(try bus.chimectl("dismiss", "\(id)").status == 0)
        let unknown = try bus.chimectl("dismiss", "999")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no notification with id 999 in the center"))
    }

    @Test func dismissAllClosesEverything() throws {
        let bus = try TestBus()
        let client = try bus.client()
        for _ in 0..<3 { _ = try client.notify(timeout: 0) }
        #expect(try bus.chimectl("dismiss", "--all").status == 0)
        #expect(try client.list().isEmpty)
    }

    /// `dismiss --app` closes one app's notifications (named by its desktop entry or its name),
    /// each as the user would (reason 2), and leaves the others.
    @Test func dismissAppClosesOnlyThatAppsNotifications() throws {
        let bus = try TestBus()
        let client = try bus.client()
        try client.listen()
        let slack = try (0..<2).map { try client.notify(app: "Slack", summary: "message \($0)", timeout: 0) }
        let entry = try client.notify(app: "Mail", hints: [("desktop-entry", .string("org.gnome.Evolution"))], timeout: 0)
        let named = try client.notify(app: "Chat", hints: [("desktop-entry", .string("org.example.Chat"))], timeout: 0)
        let other = try client.notify(app: "Other", timeout: 0)
        let result = try bus.chimectl("dismiss", "--app", "Slack")
        #expect(result.status == 0 && result.stdout.isEmpty, "silent on success: \(result)")
        #expect(try bus.chimectl("dismiss", "--app", "org.gnome.Evolution").status == 0)
        #expect(try bus.chimectl("dismiss", "--app", "Chat").status == 0, "by the name it sends")
        #expect(try client.list().compactMap { $0["id"]?.uint32 } == [other])
        for id in slack + [entry, named] {
            #expect(client.waitUntil { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(id), .uint32(2)] } })
        }
        #expect(try bus.chimectl("dismiss", "--app", "Slack").status == 0, "known, nothing open")
        #expect(try bus.chimectl("dismiss", "--app", "Nobody").status == 2, "an app Chime never heard of")
    }

    /// Presenters hear Withdrawn only for what they were shown; the app hears NotificationClosed
    /// for everything (a rate-limited flood then costs one signal per notification, not two).
    @Test func aNotificationNeverPresentedClosesWithoutWithdrawn() throws {
        let bus = try TestBus()
        let watch = try bus.start(TestBus.chimectl, ["watch"])
        let client = try bus.client()
        let ready = client.waitUntil {
            _ = try? client.notify(summary: "ping", timeout: 0)
            return watch.line(timeout: 0.3) { $0.contains("\"ping\"") } != nil
        }
        #expect(ready)
        let quiet = try client.notify(summary: "quiet", hints: [("x-chime-interruption-level", .string("passive"))], timeout: 0)
        _ = try client.call("CloseNotification", [.uint32(quiet)])
        #expect(watch.line { $0.contains("\"closed\"") && $0.contains("\"id\":\(quiet),") } != nil)
        let shown = try client.notify(summary: "shown", timeout: 0)
        _ = try client.call("CloseNotification", [.uint32(shown)])
        #expect(watch.line { $0.contains("\"withdrawn\"") && $0.contains("\"id\":\(shown),") } != nil)
        #expect(!watch.stdout.split(separator: "\n").contains { $0.contains("\"withdrawn\"") && $0.contains("\"id\":\(quiet),") })
    }

    @Test func watchPrintsOneJsonObjectPerEvent() throws {
        let bus = try TestBus()
        let watch = try bus.start(TestBus.chimectl, ["watch"])
        // The watcher is ready once it has subscribed; a presented event proves it.
        let client = try bus.client()
        var id: UInt32 = 0
        let ready = client.waitUntil {
            id = (try? client.notify(summary: "ping", timeout: 0)) ?? 0
            return watch.line(timeout: 0.3) { $0.contains("\"ping\"") } != nil
        }
        #expect(ready)
        _ = try client.call("CloseNotification", [.uint32(id)])
        let withdrawn = watch.line { $0.contains("\"withdrawn\"") && $0.contains("\"id\":\(id)") }
        let closed = watch.line { $0.contains("\"closed\"") && $0.contains("\"id\":\(id)") }
        #expect(withdrawn?.contains("\"reason\":3") == true)
        #expect(closed?.contains("\"reason-name\":\"closed\"") == true)
        #expect(try bus.chimectl("dnd", "on").status == 0)
        let focus = watch.line { $0.hasPrefix("{\"event\":\"focus\"") }
        #expect(focus?.contains("\"active\":\"dnd\"") == true)
        for line in watch.stdoutLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
        watch.signal(SIGKILL)
    }
}

/// The shell completions ask the running daemon for Focus and app names.
@Suite struct CompletionTests {
    @Test func bashCompletesCommandsAndFocusNames() throws {
        let bus = try TestBus(config: "[focus work]\n")
        let script = """
        source '\(TestBus.packageRoot.path)/completions/chimectl.bash'
        PATH='\(TestBus.binaries.path)':$PATH
        COMP_WORDS=(chimectl fo); COMP_CWORD=1; _chimectl; echo "${COMPREPLY[*]}"
        COMP_WORDS=(chimectl focus on ""); COMP_CWORD=3; _chimectl; echo "${COMPREPLY[*]}"
        COMP_WORDS=(chimectl dnd t); COMP_CWORD=2; _chimectl; echo "${COMPREPLY[*]}"
        COMP_WORDS=(chimectl sn); COMP_CWORD=1; _chimectl; echo "${COMPREPLY[*]}"
        COMP_WORDS=(chimectl history --state un); COMP_CWORD=3; _chimectl; echo "${COMPREPLY[*]}"
        """
        let result = try bus.run("/bin/bash", ["-c", script])
        #expect(result.stdout.split(separator: "\n", omittingEmptySubsequences: false) == ["focus", "dnd sharing fullscreen work", "toggle", "snooze", "unread"])
    }

    /// Every completion offers every command `chimectl help` lists, and no other.
    @Test func eachShellsCompletionKnowsEveryCommand() throws {
        let bus = try TestBus(daemon: false)
        let help = try bus.chimectl("help").stdout.split(separator: "\n")
        let listed = Set(help.drop { $0 != "commands:" }.dropFirst().prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(listed.contains("menu") && listed.contains("help") && listed.count > 20, "\(listed)")
        for (file, prefix) in [("chimectl.bash", "    local commands=\""), ("_chimectl", "    commands=("), ("chimectl.fish", "set -l commands ")] {
            let text = try String(contentsOfFile: TestBus.packageRoot.path + "/completions/" + file, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(file)")
            let words = line.dropFirst(prefix.count).split { " \")".contains($0) }.map(String.init)
            #expect(Set(words) == listed, "\(file): \(Set(words).symmetricDifference(listed))")
        }
    }
}
