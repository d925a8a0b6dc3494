import Testing
@testable import ChimeCore

@Suite struct NotificationServerTests {
    var server = NotificationServer()
    let t0 = Instant.at(1_000)

    /// A notification is a value though its fields are shared until one copy changes: changing a
    /// copy, field by field, leaves the original as it was.
    @Test func aCopyChangesAlone() {
        let original = Notification(id: 7, request: .make(summary: "before"), sender: ":1.1",
                                    created: .at(0), updated: .at(0), expires: nil)
        var copy = original
        copy.state = .quiet
        copy.sender = ":1.2"
        copy.updated = .at(5)
        copy.expires = .at(9)
        copy.repeatCount = 2
        copy.request.summary = "after"
        #expect(original.state == .presented && original.sender == ":1.1" && original.updated == .at(0))
        #expect(original.expires == nil && original.repeatCount == 1 && original.request.summary == "before")
        #expect(copy.state == .quiet && copy.sender == ":1.2" && copy.updated == .at(5) && copy.expires == .at(9))
        #expect(copy.repeatCount == 2 && copy.request.summary == "after" && copy.id == 7 && copy != original)
    }

    @Test mutating func idsStartAtOneAndAreNeverReused() throws {
        let first = try server.notify(.make(), from: ":1.1", now: t0).id
        _ = try server.close(first, caller: ":1.1")
        let second = try server.notify(.make(), from: ":1.1", now: t0).id
        #expect(first == 1)
        #expect(second == 2)
    }

    @Test mutating func idsContinuePastTheLastOneAndSkipZeroOnWrap() throws {
        server = NotificationServer(lastID: UInt32.max - 1)
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == UInt32.max)
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == 1)
    }

    /// A call chimed 0.1.0 answered keeps the id its app holds, and the ids given after it go on
    /// past the highest given.
    @Test mutating func anIDTheAppHoldsIsKeptAndTheNextGoOnPastIt() throws {
        server = NotificationServer(lastID: 1_001)
        #expect(try server.notify(.make(), from: ":1.1", now: t0, id: 3).id == 3)
        #expect(server.notification(3) != nil)
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == 1_002)
        #expect(try server.notify(.make(), from: ":1.1", now: t0, id: 2_000).id == 2_000)
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == 2_001)
    }

    @Test mutating func wrappedIdsSkipOpenNotifications() throws {
        _ = try server.notify(.make(timeout: 0), from: ":1.1", now: t0)  // 1
        _ = try server.notify(.make(timeout: 0), from: ":1.1", now: t0)  // 2
        server.lastID = UInt32.max
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == 3)
    }

    @Test mutating func replacesIdReplacesInPlaceAndKeepsTheId() throws {
        let id = try server.notify(.make(summary: "one"), from: ":1.1", now: t0).id
        let result = try server.notify(.make(summary: "two", replaces: id), from: ":1.1", now: t0)
        #expect(result.id == id)
        #expect(server.count == 1)
        #expect(server.notification(id)?.request.summary == "two")
        #expect(result.events == [.presented(server.notification(id)!)])
    }

    /// When it came, on the wall clock, is the first arrival's: a replacement updates the
    /// notification, as the center keeps its first `created`.
    @Test mutating func aReplacementKeepsWhenTheNotificationFirstCame() throws {
        let id = try server.notify(.make(summary: "one"), from: ":1.1", now: t0, wall: 1_700_000_000_000).id
        _ = try server.notify(.make(summary: "two", replaces: id), from: ":1.1", now: .at(2_000), wall: 1_700_000_001_000)
        #expect(server.notification(id)?.arrived == 1_700_000_000_000)
        #expect(server.notification(id)?.updated == .at(2_000))
    }

    @Test mutating func unknownOrClosedReplacesIdGetsAFreshId() throws {
        #expect(try server.notify(.make(replaces: 77), from: ":1.1", now: t0).id == 1)
        _ = try server.close(1, caller: ":1.1")
        #expect(try server.notify(.make(replaces: 1), from: ":1.1", now: t0).id == 2)
    }

    static let notifySend = SenderIdentity(.executable, "/usr/bin/notify-send")
    static let gdbus = SenderIdentity(.executable, "/usr/bin/gdbus")

    /// `notify-send -r` runs anew each time: another connection of the same identity replaces.
    @Test mutating func anotherConnectionOfTheSameIdentityMayReplaceAndClose() throws {
        let id = try server.notify(.make(app: "notify-send"), from: ":1.1", identity: Self.notifySend, now: t0).id
        #expect(try server.notify(.make(app: "notify-send", replaces: id), from: ":1.2", identity: Self.notifySend, now: t0).id == id)
        #expect(server.notification(id)?.sender == ":1.2")
        #expect(try server.close(id, caller: ":1.3", identity: Self.notifySend).first?.closedReason == .closedByCall)
    }

    static let flatpak = SenderIdentity(.flatpak, "org.example.Spy")
    static let mailFlatpak = SenderIdentity(.flatpak, "org.example.Mail")

    /// The boundary is the sandbox: a program of the user's (a script's gdbus) may close and
    /// replace what another sent (its notify-send), as on dunst and mako.
    @Test mutating func unsandboxedProgramsMayCloseAndReplaceEachOthers() throws {
        let id = try server.notify(.make(app: "script", summary: "mine"), from: ":1.1", identity: Self.notifySend, now: t0).id
        #expect(try server.notify(.make(app: "script", summary: "new", replaces: id), from: ":1.9", identity: Self.gdbus, now: t0).id == id)
        #expect(try server.close(id, caller: ":1.8", identity: Self.gdbus).first?.closedReason == .closedByCall)
    }

    /// A sandboxed app touches only its own, whatever it claims; a caller the system could not
    /// name only what its connection sent.
    @Test mutating func aSandboxedAppMayNeitherReplaceNorCloseAnothers() throws {
        let id = try server.notify(.make(app: "mail", summary: "mine"), from: ":1.1", identity: Self.notifySend, now: t0).id
        #expect(throws: RequestError.notOwner(id)) {
            try server.notify(.make(app: "spy", summary: "theirs", replaces: id), from: ":1.9", identity: Self.flatpak, now: t0)
        }
        #expect(throws: RequestError.notOwner(id)) { try server.close(id, caller: ":1.9", identity: Self.flatpak) }
        #expect(throws: RequestError.notOwner(id)) { try server.close(id, caller: ":1.9") }
        let sandboxed = try server.notify(.make(app: "mail"), from: ":1.2", identity: Self.mailFlatpak, now: t0).id
        #expect(throws: RequestError.notOwner(sandboxed)) { try server.close(sandboxed, caller: ":1.3", identity: Self.gdbus) }
        #expect(throws: RequestError.notOwner(sandboxed)) { try server.close(sandboxed, caller: ":1.9", identity: Self.flatpak) }
        #expect(try server.close(sandboxed, caller: ":1.4", identity: Self.mailFlatpak).first?.closedReason == .closedByCall)
        #expect(server.notification(id)?.request.summary == "mine")
    }

    /// Claiming the app's name or desktop entry is not being it: a sandboxed app may neither
    /// replace nor close, and its stack tag starts a notification of its own.
    @Test mutating func aClaimAloneGivesNoOwnership() throws {
        let tag: [String: BusValue] = ["x-dunst-stack-tag": .string("inbox"), "desktop-entry": .string("mail")]
        let id = try server.notify(.make(app: "mail", hints: tag), from: ":1.1", identity: Self.notifySend, now: t0).id
        #expect(throws: RequestError.notOwner(id)) {
            try server.notify(.make(app: "mail", replaces: id, hints: tag), from: ":1.2", identity: Self.flatpak, now: t0)
        }
        #expect(try server.notify(.make(app: "mail", hints: tag), from: ":1.2", identity: Self.flatpak, now: t0).id != id)
        #expect(throws: RequestError.notOwner(id)) { try server.close(id, caller: ":1.2", identity: nil) }
    }

    @Test mutating func closingAnUnknownIdIsAnError() {
        #expect(throws: RequestError.unknownNotification(5)) { try server.close(5, caller: ":1.1") }
    }

    @Test(arguments: ["x-canonical-private-synchronous", "x-dunst-stack-tag", "synchronous", "private-synchronous"])
    mutating func stackTagsReplaceWithinTheSameApp(tag: String) throws {
        // A volume script runs notify-send anew for each key press: a new connection of the same identity.
        let volume = try server.notify(.make(app: "vol", summary: "10%", hints: [tag: .string("volume")]), from: ":1.1",
                                       identity: Self.notifySend, now: t0).id
        let again = try server.notify(.make(app: "vol", summary: "20%", hints: [tag: .string("volume")]), from: ":1.2",
                                      identity: Self.notifySend, now: t0).id
        let otherApp = try server.notify(.make(app: "other", hints: [tag: .string("volume")]), from: ":1.3", now: t0).id
        #expect(again == volume)
        #expect(otherApp != volume)
        #expect(server.notification(volume)?.request.summary == "20%")
    }

    @Test mutating func defaultTimeoutExpiresWithReasonOne() throws {
        server.settings.defaultTimeout = .seconds(5)
        let id = try server.notify(.make(), from: ":1.1", now: t0).id
        #expect(server.nextDeadline == t0 + .seconds(5))
        #expect(server.expire(now: t0 + .milliseconds(4_999)).isEmpty)
        let events = server.expire(now: t0 + .seconds(5))
        #expect(events.map(\.closedReason) == [.expired])
        #expect(events.first?.id == id)
        #expect(server.count == 0)
    }

    @Test mutating func explicitTimeoutIsInMillisecondsAndZeroNeverExpires() throws {
        _ = try server.notify(.make(timeout: 300), from: ":1.1", now: t0)
        let forever = try server.notify(.make(timeout: 0), from: ":1.1", now: t0).id
        #expect(server.expire(now: t0 + .milliseconds(300)).count == 1)
        #expect(server.expire(now: t0 + .seconds(86_400)).isEmpty)
        #expect(server.notification(forever) != nil)
        #expect(server.nextDeadline == nil)
    }

    @Test mutating func criticalUrgencyNeverExpires() throws {
        _ = try server.notify(.make(timeout: 100, hints: ["urgency": .byte(2)]), from: ":1.1", now: t0)
        #expect(server.nextDeadline == nil)
        #expect(server.expire(now: t0 + .seconds(3_600)).isEmpty)
    }

    /// While the user is away no banner expires; back, each starts its timeout again, whole;
    /// one under the pointer keeps the time it had left until the pointer leaves.
    @Test mutating func whileTheUserIsAwayNoBannerExpiresAndBackEachStartsItsTimeoutAgain() throws {
        let early = try server.notify(.make(timeout: 1_000), from: ":1.1", now: t0).id
        let hovered = try server.notify(.make(timeout: 1_000), from: ":1.1", now: t0).id
        let kept = try server.notify(.make(timeout: 0), from: ":1.1", now: t0).id
        server.pauseExpiry(hovered, now: t0 + .milliseconds(400))
        server.setAway(true, now: t0 + .milliseconds(500))
        let late = try server.notify(.make(timeout: 2_000), from: ":1.1", now: t0 + .seconds(1)).id
        #expect(server.expire(now: t0 + .seconds(3_600)).isEmpty)
        #expect(server.count == 4)

        let back = t0 + .seconds(3_600)
        server.setAway(false, now: back)
        #expect(server.notification(early)?.expires == back + .seconds(1))
        #expect(server.notification(late)?.expires == back + .seconds(2))
        #expect(server.notification(hovered)?.expires == nil && server.notification(kept)?.expires == nil)
        #expect(server.expire(now: back + .milliseconds(999)).isEmpty, "deadlines that passed while away are gone")
        #expect(server.expire(now: back + .seconds(1)).map(\.id) == [early])
        server.resumeExpiry(hovered, now: back + .seconds(1))
        #expect(server.notification(hovered)?.expires == back + .seconds(2), "the 600 ms it had left, and at least a second")
        #expect(server.expire(now: back + .seconds(2)).map(\.id).sorted() == [hovered, late])
        #expect(server.notification(kept) != nil)
    }

    @Test mutating func replacingRestartsTheTimeoutAndTheOldDeadlineIsIgnored() throws {
        let id = try server.notify(.make(timeout: 1_000), from: ":1.1", now: t0).id
        _ = try server.notify(.make(replaces: id, timeout: 1_000), from: ":1.1", now: t0 + .milliseconds(900))
        #expect(server.expire(now: t0 + .milliseconds(1_000)).isEmpty)
        #expect(server.expire(now: t0 + .milliseconds(1_900)).map(\.closedReason) == [.expired])
    }

    @Test mutating func invokeSendsTheActionThenClosesAsDismissed() throws {
        let id = try server.notify(.make(actions: ["default", "Open", "ok", "OK"]), from: ":1.1", now: t0).id
        let events = try server.invoke(id, key: "ok")
        #expect(events.count == 2)
        guard case .actionInvoked(let n, let key) = events[0] else { Issue.record("no action"); return }
        #expect(n.sender == ":1.1" && key == "ok")
        #expect(events[1].closedReason == .dismissed)
    }

    @Test mutating func anEmptyKeyMeansTheDefaultAction() throws {
        let id = try server.notify(.make(actions: ["default", "Open"]), from: ":1.1", now: t0).id
        guard case .actionInvoked(_, let key) = try server.invoke(id, key: "").first else { Issue.record(); return }
        #expect(key == "default")
    }

    @Test mutating func invokingAMissingActionIsAnErrorAndChangesNothing() throws {
        let id = try server.notify(.make(actions: ["ok", "OK"]), from: ":1.1", now: t0).id
        #expect(throws: RequestError.unknownAction(id, "")) { try server.invoke(id, key: "") }
        #expect(throws: RequestError.unknownAction(id, "nope")) { try server.invoke(id, key: "nope") }
        #expect(server.notification(id) != nil)
    }

    @Test mutating func residentNotificationsStayAfterAnAction() throws {
        let id = try server.notify(.make(actions: ["ok", "OK"], hints: ["resident": .bool(true)]), from: ":1.1", now: t0).id
        #expect(try server.invoke(id, key: "ok").count == 1)
        #expect(server.notification(id) != nil)
    }

    @Test mutating func replyNeedsTheInlineReplyAction() throws {
        let plain = try server.notify(.make(), from: ":1.1", now: t0).id
        #expect(throws: RequestError.self) { try server.reply(plain, text: "hi") }
        let chat = try server.notify(.make(actions: ["inline-reply", "Reply"]), from: ":1.1", now: t0).id
        let events = try server.reply(chat, text: "on my way")
        guard case .replied(let notification, let text) = events.first else { Issue.record("no reply"); return }
        #expect(notification.id == chat && notification.sender == ":1.1" && text == "on my way")
        #expect(events.last?.closedReason == .dismissed)
    }

    @Test mutating func dismissAllClosesEverythingAsDismissed() throws {
        for _ in 0..<3 { _ = try server.notify(.make(), from: ":1.1", now: t0) }
        #expect(server.dismissAll().map(\.closedReason) == [.dismissed, .dismissed, .dismissed])
        #expect(server.count == 0)
    }

    @Test mutating func listingKeepsTheOrderOfArrival() throws {
        for summary in ["a", "b", "c"] { _ = try server.notify(.make(summary: summary), from: ":1.1", now: t0) }
        _ = try server.dismiss(2)
        #expect(server.notifications.map(\.request.summary) == ["a", "c"])
    }

    @Test mutating func expiryQueueStaysBoundedUnderAReplaceFlood() throws {
        let id = try server.notify(.make(timeout: 10_000), from: ":1.1", now: t0).id
        for step in 1...10_000 {
            _ = try server.notify(.make(replaces: id, timeout: 10_000), from: ":1.1", now: t0 + .milliseconds(Int64(step)))
            _ = server.expire(now: t0 + .milliseconds(Int64(step)))
        }
        #expect(server.pendingDeadlines < 200)
        let events = server.expire(now: t0 + .milliseconds(20_000))
        #expect(events.map(\.closedReason) == [.expired])
    }
}

@Suite struct RequestValueTests {
    /// Copies of a request share their fields until one changes: the change is the copy's alone.
    @Test func changingACopyOfARequestLeavesTheOriginalAsItWas() {
        let original = NotificationRequest.make(summary: "first", hints: ["category": .string("email")])
        var copy = original
        #expect(copy == original)
        copy.summary = "second"
        copy.hints.category = "im"
        copy.actions += [Action(key: "open", label: "Open")]
        #expect(original.summary == "first")
        #expect(original.hints.category == "email")
        #expect(original.actions.isEmpty)
        #expect(copy.summary == "second" && copy.hints.category == "im" && copy.actions.count == 1)
        #expect(copy != original)
    }
}

@Suite struct ImageBudgetTests {
    @Test func onlyTheNewestImagesKeepTheirPixels() throws {
        var server = NotificationServer()
        let image: BusValue = .structure([.int32(512), .int32(512), .int32(2048), .bool(true), .int32(8), .int32(4),
                                          .bytes([UInt8](repeating: 1, count: 512 * 2048))])  // 1 MB each
        var ids: [UInt32] = []
        for _ in 0..<12 { ids.append(try server.notify(.make(hints: ["image-data": image]), from: ":1.1", now: .at(0)).id) }
        #expect(server.imageBytes <= NotificationServer.imageBudget)
        #expect(server.notification(ids[0])?.request.hints.imageData == nil)
        #expect(server.notification(ids[11])?.request.hints.imageData != nil)
        #expect(server.count == 12, "the notifications themselves stay")
        _ = server.dismissAll()
        #expect(server.imageBytes == 0)
    }

    /// A notification replaced with a new image is the newest holder: past the budget the older
    /// ones lose their pixels first, never its new image.
    @Test func aReplacedImageCountsAsTheNewest() throws {
        var server = NotificationServer()
        let image: BusValue = .structure([.int32(512), .int32(512), .int32(2048), .bool(true), .int32(8), .int32(4),
                                          .bytes([UInt8](repeating: 1, count: 512 * 2048))])  // 1 MB each
        let replaced = try server.notify(.make(hints: ["image-data": image]), from: ":1.1", now: .at(0)).id
        var others: [UInt32] = []
        for _ in 0..<6 { others.append(try server.notify(.make(hints: ["image-data": image]), from: ":1.1", now: .at(0)).id) }
        for _ in 0..<4 { _ = try server.notify(.make(replaces: replaced, hints: ["image-data": image]), from: ":1.1", now: .at(1)) }
        #expect(server.imageBytes <= NotificationServer.imageBudget)
        #expect(server.notification(replaced)?.request.hints.imageData != nil, "its newest image stays")
        #expect(server.notification(others[5])?.request.hints.imageData != nil)
        for _ in 0..<4 { _ = try server.notify(.make(hints: ["image-data": image]), from: ":1.1", now: .at(2)) }
        #expect(server.notification(others[0])?.request.hints.imageData == nil, "the oldest goes first")
        #expect(server.notification(replaced)?.request.hints.imageData != nil, "it was replaced after the others")
        #expect(server.imageBytes <= NotificationServer.imageBudget)
    }
}

@Suite struct OpenLimitTests {
    @Test func pastTheLimitTheOldestExpiringNotificationsAreRetiredAtOnce() throws {
        var server = NotificationServer(settings: ServerSettings(maximumOpen: 3))
        let sticky = try server.notify(.make(timeout: 0), from: ":1.1", now: .at(0)).id
        var retired: [UInt32] = []
        for _ in 0..<5 {
            retired += try server.notify(.make(), from: ":1.1", now: .at(0)).events.compactMap(\.retiredID)
            #expect(server.count <= 3, "the Notify that went over brings the count back itself")
        }
        #expect(retired == [2, 3, 4], "the oldest that could expire, never the one that stays until closed")
        #expect(server.notification(sticky) != nil)
        #expect(server.notification(2) == nil)
        #expect(throws: RequestError.unknownNotification(2)) { try server.close(2, caller: ":1.1") }
    }

    @Test func aLongFloodKeepsTheListingInOrderOfArrival() throws {
        var server = NotificationServer(settings: ServerSettings(maximumOpen: 5))
        func notify(_ summary: String, timeout: Int32 = -1) throws -> UInt32 {
            try server.notify(.make(summary: summary, timeout: timeout), from: ":1.1", now: .at(0)).id
        }
        _ = try notify("sticky 1", timeout: 0)
        for step in 0..<3 { _ = try notify("early \(step)") }
        let second = try notify("sticky 2", timeout: 0)
        // Past the limit often enough that the closed ids at the front are compacted away, twice.
        for step in 0..<200 { _ = try notify("flood \(step)") }
        #expect(server.notifications.map(\.request.summary) == ["sticky 1", "sticky 2", "flood 197", "flood 198", "flood 199"])
        _ = try server.close(second, caller: ":1.1")
        for step in 200..<300 { _ = try notify("flood \(step)") }
        #expect(server.notifications.map(\.request.summary) == ["sticky 1", "flood 296", "flood 297", "flood 298", "flood 299"])
    }

    /// A flood while a Focus holds everything: past the limit the oldest held ones go (the center
    /// keeps them), so the open set stays bounded.
    @Test func pastTheLimitWithNothingElseToRetireTheOldestHeldGo() throws {
        var server = NotificationServer(settings: ServerSettings(maximumOpen: 3))
        let held = DeliveryDecision(level: .active, drop: nil, hold: .focus("dnd"), banner: false, sound: false, redacted: false,
                                    inCenter: true, unread: true, lifetime: .serverDefault)
        let sticky = try server.notify(.make(summary: "sticky", hints: ["urgency": .byte(2)]), from: ":1.1", now: .at(0)).id
        let ids = try (0..<5).map { n throws(RequestError) in
            try server.notify(.make(summary: "held \(n)"), from: ":1.1", now: .at(0), decision: held).id
        }
        #expect(server.count == 3)
        #expect(server.notifications.map(\.id) == [sticky, ids[3], ids[4]], "a banner that never expires stays")
    }

    @Test func quietNotificationsAreRetiredAndHeldOnesStay() throws {
        var server = NotificationServer(settings: ServerSettings(maximumOpen: 2))
        func decision(hold: DeliveryDecision.Hold?) -> DeliveryDecision {
            DeliveryDecision(level: .active, drop: nil, hold: hold, banner: false, sound: false, redacted: false,
                             inCenter: true, unread: true, lifetime: .serverDefault)
        }
        let kept = try server.notify(.make(), from: ":1.1", now: .at(0), decision: decision(hold: .summary)).id
        let quiet = try server.notify(.make(), from: ":1.1", now: .at(0), decision: decision(hold: nil)).id
        let events = try server.notify(.make(), from: ":1.1", now: .at(0), decision: decision(hold: nil)).events
        #expect(events.compactMap(\.retiredID) == [quiet])
        #expect(server.notification(kept) != nil)
    }
}
