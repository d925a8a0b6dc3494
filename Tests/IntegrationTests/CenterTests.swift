import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// The center's operations through chimectl on a private bus (the README's notification center).
@Suite struct CenterBusTests {
    func send(_ bus: TestBus, _ arguments: String...) throws -> String {
        let result = try bus.run("notify-send", ["-p"] + arguments)
        guard result.status == 0 else { throw TestFailure("notify-send failed: \(result.stderr)") }
        return result.stdout
    }

    func historyStates(_ bus: TestBus) throws -> [String: String] {
        let json = try bus.chimectl("history", "--json").stdout
        let entries = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: entries.map { ("\($0["id"] ?? "")", "\($0["state"] ?? "")") })
    }

    @Test func readDismissDeleteAndClearChangeTheCenterAndTheBadges() throws {
        let bus = try TestBus()
        let first = try send(bus, "-a", "Mail", "one", "x")
        let second = try send(bus, "-a", "Mail", "two", "x")
        let third = try send(bus, "-a", "Mail", "three", "x")
        _ = try send(bus, "-a", "Chat", "hi", "x")
        #expect(try bus.chimectl("badges").stdout == "Chat\t1\nMail\t3")

        #expect(try bus.chimectl("read", first).status == 0)
        #expect(try bus.chimectl("dismiss", second).status == 0)
        #expect(try bus.chimectl("badges").stdout == "Chat\t1\nMail\t1")
        #expect(try historyStates(bus)[first] == "read")
        #expect(try historyStates(bus)[second] == "dismissed")
        #expect(try bus.chimectl("history", "--state", "unread").stdout.split(separator: "\n").count == 2)

        #expect(try bus.chimectl("delete", third).status == 0)
        #expect(try historyStates(bus)[third] == nil)
        let shown = try bus.chimectl("show", third)
        #expect(shown.status == 1 && shown.stderr.contains("no notification with id \(third) in the center"))
        #expect(try bus.chimectl("badges").stdout == "Chat\t1")

        #expect(try bus.chimectl("read", "--app", "Chat").stdout.isEmpty)
        let none = try bus.chimectl("badges")
        #expect(none.stdout.isEmpty && none.stderr.contains("no unread notifications"), "a pipe gets nothing to count")
        #expect(try bus.chimectl("clear", "--app", "Mail").stdout.isEmpty)
        #expect(try historyStates(bus).count == 1)
        #expect(try bus.chimectl("clear").status == 0)
        #expect(try historyStates(bus).isEmpty)
    }

    @Test func showPrintsOneNotificationWithItsStateAndThreads() throws {
        let bus = try TestBus()
        let id = try send(bus, "-a", "Chat", "-h", "string:x-chime-thread:family", "Dinner?", "at eight")
        _ = try send(bus, "-a", "Chat", "-h", "string:x-chime-thread:work", "Standup", "now")
        let json = try bus.chimectl("show", id, "--json").stdout
        let entry = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(entry?["summary"] as? String == "Dinner?")
        #expect(entry?["thread"] as? String == "family")
        #expect(entry?["unread"] as? Bool == true)
        #expect(entry?["open"] as? Bool == true)
        #expect(try bus.chimectl("show", id).stdout.contains("summary: Dinner?"))
        #expect(try bus.chimectl("history", "--thread", "work").stdout.hasSuffix("Standup"))
        #expect(try bus.chimectl("dismiss", id).status == 0)
        let closed = try bus.chimectl("show", id).stdout
        #expect(closed.contains("\nclose-reason: dismissed (2)\n"), "a close reason by name: \(closed)")
    }

    /// The same notification again is one entry in the center with a repeat count, and one for
    /// the app: each call has its own id (the spec says ids are unique), stays open and closes
    /// with its own NotificationClosed.
    @Test func theSameNotificationAgainIsOneEntryWithARepeatCount() throws {
        let bus = try TestBus()
        let client = try bus.client()
        try client.listen()
        let app = try bus.client()
        let one = try app.notify(app: "Chat", summary: "ping", body: "again")
        let two = try app.notify(app: "Chat", summary: "ping", body: "again")
        #expect(one != two, "ids of their own")
        #expect(try bus.chimectl("history", "--app", "Chat").stdout.split(separator: "\n").count == 1)
        #expect(try bus.chimectl("history", "--app", "Chat").stdout.hasSuffix("ping (2x)"))
        _ = try app.call("CloseNotification", [.uint32(two)])
        #expect(client.waitUntil { client.signals(named: "NotificationClosed").compactMap { $0.arguments.first?.uint32 } == [two] },
                "it closes for its app; the other stays open")
        #expect(try app.list().contains { $0["id"]?.uint32 == one })

        let first = try send(bus, "-a", "CI", "Build failed", "main")
        #expect(try send(bus, "-a", "CI", "Build failed", "main") != first)
        #expect(try bus.chimectl("history", "--app", "CI").stdout.hasSuffix("Build failed (2x)"))
        #expect(try bus.chimectl("badges").stdout.contains("CI\t1"))

        // Replaced in place with other texts (notify-send -r), it no longer takes the first texts'
        // repeats: they are a new notification, whose own repeats merge into it.
        #expect(try send(bus, "-a", "CI", "-r", first.trimmingCharacters(in: .whitespacesAndNewlines), "Build passed", "main") == first)
        let anew = try send(bus, "-a", "CI", "Build failed", "main")
        #expect(anew != first)
        let thirdRepeat = try send(bus, "-a", "CI", "Build failed", "main")
        #expect(try bus.chimectl("show", thirdRepeat.trimmingCharacters(in: .whitespacesAndNewlines)).stdout.contains("\nrepeat-count: "),
                "repeats merge into it")
    }

    /// Sent together, the second before chimed handled the first (both answered by its bus
    /// thread at once): two ids, one entry on the screen and in the center.
    @Test func theSameNotificationSentTwiceAtOnceIsOneEntry() throws {
        let bus = try TestBus()
        let app = try bus.client()
        for _ in 0..<2 {
            app.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                            interface: "org.freedesktop.Notifications", method: "Notify",
                                            arguments: TestClient.notifyArguments(app: "CI", summary: "Build failed", body: "main")))
        }
        app.connection.flush()
        #expect(app.waitUntil { app.replies.count == 2 })
        let ids = app.replies.compactMap { $0.arguments.first?.integer }
        #expect(Set(ids).count == 2, "\(ids)")
        #expect(try bus.chimectl("history").stdout.hasSuffix("Build failed (2x)"))
    }

    @Test func restoreAndSnoozePresentANotificationAgain() throws {
        let bus = try TestBus()
        let watcher = try Watcher(bus: bus)
        let id = try send(bus, "-a", "Mail", "-t", "300", "Lunch", "at noon")
        let number = try #require(Int64(id))
        #expect(watcher.presented(containing: "Lunch") != nil)
        let came = try bus.client().list().first { $0["id"]?.integer == number }?["created"]?.integer
        #expect(watcher.process.line(timeout: 10) { $0.contains("\"withdrawn\"") && $0.contains("\"id\":\(id)") } != nil,
                "it timed out")
        #expect(try bus.chimectl("restore", id).status == 0)
        #expect(watcher.process.line(timeout: 10) { $0.contains("\"presented\"") && $0.contains("\"id\":\(id)") } != nil)
        let restored = try bus.client().list().first { $0["id"]?.integer == number }
        #expect(came != nil && restored?["created"]?.integer == came, "restored, it still came when it came: \(String(describing: came))")

        let marker = watcher.process.stdoutLines.count
        #expect(try bus.chimectl("snooze", id, "1s").status == 0)
        #expect(try bus.client().list().first { $0["id"]?.integer == number }?["state"]?.string == "snoozed")
        let back = watcher.process.line(from: marker, timeout: 10) { $0.contains("\"presented\"") && $0.contains("\"id\":\(id)") }
        #expect(back != nil, "presented again when the snooze ended")
        let bad = try bus.chimectl("snooze", id, "soon")
        #expect(bad.status == 2)
    }

    /// Restored from the center, a notification comes back as it came (its image, no sound when
    /// it asked for none, its destructive actions and placeholder); a file that has changed since
    /// is checked again and left out, as on arrival.
    @Test func aRestoredNotificationComesBackWithItsHintsAndItsFilesCheckedAgain() throws {
        let bus = try TestBus()
        let watcher = try Watcher(bus: bus)
        let picture = bus.directory.appendingPathComponent("picture.png").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: URL(fileURLWithPath: picture))
        let id = try bus.client().notify(app: "Mail", summary: "kept as it came", actions: ["delete", "Delete"], hints: [
            ("image-path", .string(picture)), ("suppress-sound", .bool(true)),
            ("x-chime-destructive-actions", .stringArray(["delete"])), ("x-chime-hidden-preview-body", .string("A letter"))])
        func restored() throws -> [String: Any]? {
            let marker = watcher.process.stdoutLines.count
            #expect(try bus.chimectl("dismiss", "\(id)").status == 0)
            #expect(try bus.chimectl("restore", "\(id)").status == 0)
            let line = watcher.process.line(from: marker, timeout: 10) { $0.contains("\"presented\"") && $0.contains("\"id\":\(id),") }
            return try line.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["notification"] as? [String: Any]
        }
        #expect(watcher.presented(containing: "kept as it came")?["image-path"] as? String == picture, "as it came")
        let back = try #require(try restored())
        #expect(back["image-path"] as? String == picture)
        #expect(back["sound"] as? Bool == false && back["destructive-actions"] as? [String] == ["delete"])

        #expect(unlink(picture) == 0 && mkfifo(picture, 0o600) == 0)
        let again = try #require(try restored())
        #expect(again["image-path"] == nil, "a FIFO now: left out, and nothing blocks")
        #expect(bus.logSays("image-path: \(picture)"), "\(bus.daemonLog)")
    }

    @Test func anActionFromHistoryReachesTheAppWhileItRunsAndSaysWhenItIsGone() throws {
        let bus = try TestBus()
        let app = try bus.client()
        try app.listen()
        let id = try app.notify(summary: "Invite", actions: ["default", "Open", "accept", "Accept"], timeout: 200)
        #expect(app.waitUntil { !app.signals(named: "NotificationClosed").isEmpty }, "it expired")
        #expect(try bus.chimectl("invoke", "\(id)", "accept").status == 0)
        #expect(app.waitUntil { app.signals(named: "ActionInvoked").contains { $0.arguments == [.uint32(id), .string("accept")] } })
        #expect(try historyStates(bus)["\(id)"] == "read")

        // gdbus sends one Notify and leaves the bus.
        let gone = try bus.run("gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                                         "--object-path", "/org/freedesktop/Notifications",
                                         "--method", "org.freedesktop.Notifications.Notify",
                                         "Gone", "0", "", "Bye", "", "['open', 'Open']", "{}", "1"])
        let goneID = String(gone.stdout.split(separator: " ").last?.filter(\.isNumber) ?? "")  // "(uint32 7,)"
        #expect(app.waitUntil { app.signals(named: "NotificationClosed").contains { $0.arguments.first == .uint32(UInt32(goneID) ?? 0) } })
        let refused = try bus.chimectl("invoke", goneID, "open")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Gone is no longer running"))
        let unknown = try bus.chimectl("invoke", goneID, "nope")
        #expect(unknown.status == 1 && unknown.stderr.contains("has no action"))
    }

    /// An open notification whose sender left the bus (gdbus sends and leaves; its banner stays
    /// up) cannot take an action or a reply any more: AppGone, not a success that reaches no one.
    @Test func anOpenNotificationWhoseAppLeftSaysSoOnInvokeAndReply() throws {
        let bus = try TestBus()
        let gone = try bus.run("gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                                         "--object-path", "/org/freedesktop/Notifications",
                                         "--method", "org.freedesktop.Notifications.Notify",
                                         "Gone", "0", "", "Chat", "", "['open', 'Open', 'inline-reply', 'Reply']", "{}", "0"])
        let id = UInt32(gone.stdout.split(separator: " ").last?.filter(\.isNumber) ?? "") ?? 0
        let client = try bus.client()
        #expect(try client.list().contains { $0["id"] == .uint32(id) }, "still open")
        for (method, arguments) in [("Invoke", [BusValue.uint32(id), .string("open")]),
                                    ("Reply", [.uint32(id), .string("hello?")])] {
            let result = Result { () throws(BusError) in try client.control(method, arguments) }
            guard case .failure(let error) = result else {
                Issue.record("\(method) succeeded for an app that left")
                continue
            }
            #expect(error.name == "dev.chime.Error.AppGone", "\(method): \(error.name)")
        }
        let refused = try bus.chimectl("invoke", "\(id)", "open")
        #expect(refused.status == 1 && refused.stderr.contains("Gone is no longer running"))
    }

    @Test func overTheRateLimitTheConfigCanRefuseWithExcessNotificationGeneration() throws {
        let bus = try TestBus(config: "[general]\nrate-limit-burst = 2\nrate-limit-per-minute = 1\nrate-limit-action = refuse\n")
        let client = try bus.client()
        _ = try client.notify(app: "spam", summary: "1")
        _ = try client.notify(app: "spam", summary: "2")
        #expect(client.refusal(app: "spam", summary: "3") == "org.freedesktop.Notifications.Error.ExcessNotificationGeneration")
        #expect(try client.notify(app: "calm", summary: "fine") > 0, "other apps are not limited")
        #expect(try client.notify(app: "spam", summary: "urgent", hints: [("urgency", .byte(2))]) > 0, "critical gets through")
    }

    @Test func overTheRateLimitNotificationsArriveQuietlyByDefault() throws {
        let bus = try TestBus(config: "[general]\nrate-limit-burst = 2\nrate-limit-per-minute = 1\n")
        let client = try bus.client()
        let ids = try (0..<4).map { index throws(BusError) in try client.notify(app: "spam", summary: "\(index)") }
        let states = try historyStates(bus)
        #expect(ids.map { states["\($0)"] } == ["presented", "presented", "quiet", "quiet"])
        #expect(bus.daemon?.line(onStderr: true, timeout: 5) { $0.contains("spam is over its rate limit") } != nil)
    }

    /// A client that has sent 2,100 quiet notifications at once and had them all answered,
    /// listening for NotificationClosed. A rate limit that refills too slowly to matter makes
    /// exactly the first 20 banners, which never expire here (timeout 0) and so are never retired;
    /// past the 2,000-open limit, 21 to 120 are.
    func floodPastTheOpenLimit(_ bus: TestBus) throws -> TestClient {
        let flooder = try bus.client()
        try flooder.listen("type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'")
        for index in 0..<2_100 {
            flooder.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "flood \(index)", timeout: 0)))
        }
        #expect(flooder.waitUntil(timeout: 60) { flooder.replies.count == 2_100 })
        return flooder
    }

    static let floodConfig = "[general]\nhistory-max = 100000\nrate-limit-burst = 20\nrate-limit-per-minute = 1\n"
    static let retiredIDs = Set((21...120).map(Int64.init))

    func closedIDs(_ client: TestClient) -> Set<Int64> {
        Set(client.signals(named: "NotificationClosed").compactMap { $0.arguments.first?.integer })
    }

    /// Every entry in the center, by id, as the control interface's History gives it.
    func centerStates(_ client: TestClient) throws -> [Int64: String] {
        guard case .array(_, let items)? = try client.control("History", [.vardict([("limit", .uint32(10_000))])]).first else {
            return [:]
        }
        var states: [Int64: String] = [:]
        for entry in items.compactMap(\.vardictEntries) {
            if let id = entry["id"]?.integer, let state = entry["state"]?.string { states[id] = state }
        }
        return states
    }

    /// Past 2,000 open the oldest quiet ones are retired at once (the center keeps them); their
    /// apps hear NotificationClosed, and the center marks them closed, once the flood pauses.
    /// Calls sent without waiting reach chimed together and are handled in one turn. What a
    /// Notify changes that its reply does not wait for (the unread count among it) is settled
    /// before the turn's next call, which therefore sees it.
    @Test func aCallRightBehindNotifiesSeesWhatTheyChanged() throws {
        let bus = try TestBus()
        let app = try bus.client()
        for round in 1...5 {
            for index in 0..<20 {
                app.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "\(round).\(index)")))
            }
            app.connection.send(.methodCall(destination: "dev.chime.Chime1", path: "/dev/chime/Chime1",
                                            interface: "dev.chime.Chime1", method: "GetStatus", arguments: []))
            app.connection.flush()
            #expect(app.waitUntil { app.replies.count == round * 21 })
            let status = app.replies.last?.arguments.first?.vardictEntries
            #expect(status?["unread"] == .uint32(UInt32(round * 20)), "round \(round)")
        }
    }

    @Test func pastTheOpenLimitTheOldestAreClosedOnceTheFloodIsAnswered() throws {
        let bus = try TestBus(config: Self.floodConfig)
        let flooder = try floodPastTheOpenLimit(bus)
        #expect(try flooder.list().count == 2_000, "retired as the flood went over, not later")
        #expect(flooder.waitUntil(timeout: 20) { closedIDs(flooder).count >= 100 })
        #expect(closedIDs(flooder) == Self.retiredIDs)
        let states = try centerStates(flooder)
        #expect(states.count == 2_100, "the center keeps them")
        #expect(Self.retiredIDs.allSatisfy { states[$0] == "closed" }, "the center says they closed")
        #expect(states[121] == "quiet" && states[20] == "presented")
    }

    /// A flood while Do Not Disturb holds everything: the open set still stays at its limit, the
    /// oldest held ones closed for their app, and the center keeps every one.
    @Test func aFloodWhileAFocusHoldsEverythingStaysWithinTheOpenLimit() throws {
        let bus = try TestBus(config: Self.floodConfig)
        #expect(try bus.chimectl("dnd", "on").status == 0)
        let flooder = try floodPastTheOpenLimit(bus)
        #expect(try flooder.list().count == 2_000)
        #expect(flooder.waitUntil(timeout: 20) { closedIDs(flooder).count >= 100 })
        #expect(try centerStates(flooder).count == 2_100, "the center keeps them")
    }

    /// Stopped before it noticed the flood pause, chimed tells the apps on its way out, and the
    /// center it leaves says they closed.
    @Test func aChimedStoppedRightAfterAFloodTellsAppsOfWhatItRetired() throws {
        let bus = try TestBus(config: Self.floodConfig)
        let flooder = try floodPastTheOpenLimit(bus)
        bus.daemon?.signal(SIGTERM)
        #expect(flooder.waitUntil(timeout: 20) { closedIDs(flooder).count >= 100 })
        #expect(closedIDs(flooder) == Self.retiredIDs)
        #expect(bus.daemon?.wait(timeout: 10) == 0)
        try bus.startDaemon()
        let states = try centerStates(bus.client())
        #expect(Self.retiredIDs.allSatisfy { states[$0] == "closed" }, "the center says they closed")
    }

    @Test func badFiltersAndUnknownIdsAreClearErrors() throws {
        let bus = try TestBus()
        for arguments in [["read"], ["snooze", "1"], ["restore", "x"], ["clear", "extra"], ["history", "--thread"]] {
            #expect(try bus.run(TestBus.chimectl, arguments).status == 2, "\(arguments)")
        }
        for arguments in [["restore", "42"], ["read", "42"], ["delete", "42"], ["snooze", "42", "5m"]] {
            let result = try bus.run(TestBus.chimectl, arguments)
            #expect(result.status == 1 && result.stderr.contains("no notification with id 42"), "\(arguments)")
        }
        let client = try bus.client()
        let result = Result { () throws(BusError) in try client.control("History", [.vardict([("state", .string("lost"))])]) }
        guard case .failure(let error) = result else { Issue.record("a bad state was accepted"); return }
        #expect(error.name == BusError.invalidArgs && error.message.contains("is not a state"))
    }

    @Test func retentionKeepsTheNewestAndTheirBadgesFollow() throws {
        let bus = try TestBus(config: "[general]\nhistory-max = 5\n")
        let client = try bus.client()
        for index in 1...8 { _ = try client.notify(app: "Mail", summary: "mail \(index)", timeout: 0) }
        #expect(try bus.chimectl("badges").stdout == "Mail\t8")
        // Pruning runs every 5 seconds and at start: a restart shows it without waiting.
        try bus.restartChimed()
        let kept = try bus.chimectl("history").stdout.split(separator: "\n").map { $0.split(separator: "\t").last.map(String.init) ?? "" }
        #expect(kept == ["mail 8", "mail 7", "mail 6", "mail 5", "mail 4"])
        #expect(try bus.chimectl("badges").stdout == "Mail\t5")
    }
}
