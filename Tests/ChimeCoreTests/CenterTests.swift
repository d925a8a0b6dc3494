import Testing
@testable import ChimeCore

/// A manual clock in milliseconds on a Monday morning; wall and monotonic move together.
private func clock(_ ms: Int64) -> Now { at(.monday, "10:00", wall: ms) }

private func sounds(_ events: [ServerEvent]) -> Int {
    events.filter { if case .playSound = $0 { true } else { false } }.count
}

/// Repeats, rate limits, unread counts and badges, snooze and restore (chimed(1)'s notification center).
@Suite struct CenterTests {
    var attention = Attention()

    /// Feeds events to the unread counts, as the daemon does.
    mutating func send(_ request: NotificationRequest, at ms: Int64, from sender: String = ":1.1") throws -> (id: UInt32, events: [ServerEvent]) {
        let result = try attention.notify(request, from: sender, now: clock(ms))
        for event in result.events { attention.unread.observe(event) }
        return result
    }

    mutating func observe(_ events: [ServerEvent]) {
        for event in events { attention.unread.observe(event) }
    }

    /// A repeat is merged where the person sees it (the first's banner and center entry, "×2",
    /// no second sound) and never where the app does: an id of its own, both open.
    @Test mutating func theSameNotificationAgainTakesTheFirstsBannerAndCountsRepeats() throws {
        let first = try send(.make(app: "ci", summary: "Build failed", body: "main"), at: 0)
        #expect(sounds(first.events) == 1)
        let second = try send(.make(app: "ci", summary: "Build failed", body: "main"), at: 10_000)
        #expect(second.id != first.id, "an id of its own")
        #expect(attention.server.notification(second.id)?.repeatCount == 2)
        #expect(sounds(second.events) == 0, "a repeat does not ring again")
        #expect(second.events.contains(.updated(attention.server.notification(second.id)!, replacing: first.id)), "in the first's banner")
        #expect(second.events.contains { if case .merged(let earlier, into: second.id) = $0 { earlier.id == first.id } else { false } },
                "and its place in the center")
        #expect(attention.server.notification(first.id)?.state == .quiet, "the first stays open for its app, without a banner")
        #expect(attention.unread.total == 1, "one entry unread")
        _ = try attention.server.close(first.id, caller: ":1.1")
        #expect(attention.server.notification(second.id) != nil, "closing one leaves the other")
        let other = try send(.make(app: "ci", summary: "Build failed", body: "release"), at: 11_000)
        #expect(other.id != first.id, "a different body is a different notification")
        let late = try send(.make(app: "ci", summary: "Build failed", body: "main", timeout: 0), at: 80_000)
        #expect(late.id != first.id, "outside the 60 s window it stands alone")
    }

    @Test mutating func aRepeatMergesOnlyIntoANotificationStillShowingItsTexts() throws {
        let first = try send(.make(app: "ci", summary: "Build failed", body: "main"), at: 0)
        // The app replaces it in place with other texts; the first texts again are new.
        _ = try send(.make(app: "ci", summary: "Build passed", body: "main", replaces: first.id), at: 1_000)
        let again = try send(.make(app: "ci", summary: "Build failed", body: "main"), at: 2_000)
        #expect(again.id != first.id)
        #expect(attention.server.notification(first.id)?.request.summary == "Build passed")
        #expect(attention.server.notification(first.id)?.repeatCount == 1)
        let repeated = try send(.make(app: "ci", summary: "Build failed", body: "main"), at: 3_000)
        #expect(attention.server.notification(repeated.id)?.repeatCount == 2, "and repeats of the new one merge into it")
    }

    @Test mutating func aZeroRepeatWindowMergesNothing() throws {
        var settings = ChimeSettings()
        settings.center.repeatWindow = .zero
        attention = Attention(settings: settings)
        let first = try send(.make(app: "ci", summary: "same"), at: 0)
        let second = try send(.make(app: "ci", summary: "same"), at: 0)
        #expect(second.id != first.id)
    }

    @Test mutating func anIdenticalTimeSensitiveOrAllowedCallRingsAgain() throws {
        let alarm = NotificationRequest.make(app: "phone", summary: "Call", hints: ["urgency": .byte(2)])
        let first = try send(alarm, at: 0)
        let second = try send(alarm, at: 1_000)
        #expect(second.id != first.id)
        #expect(sounds(second.events) == 1)
    }

    @Test mutating func overTheRateLimitAnAppIsQuietAndOthersAreNot() throws {
        var settings = ChimeSettings()
        settings.center.rateLimit = .init(burst: 3, perMinute: 60)
        attention = Attention(settings: settings)
        var states: [NotificationState] = []
        var over: [String] = []
        for index in 0..<5 {
            let (id, events) = try send(.make(app: "spam", summary: "\(index)"), at: 0)
            states.append(attention.server.notification(id)!.state)
            over += events.compactMap { if case .overRateLimit(let app) = $0 { app } else { nil } }
        }
        #expect(states == [.presented, .presented, .presented, .quiet, .quiet])
        let other = try send(.make(app: "mail", summary: "hello"), at: 0)
        #expect(attention.server.notification(other.id)?.state == .presented)
        #expect(over == ["spam"])
        let urgent = try send(.make(app: "spam", summary: "urgent", hints: ["urgency": .byte(2)]), at: 0)
        #expect(attention.server.notification(urgent.id)?.state == .presented, "critical gets through a flood")
        let refilled = try send(.make(app: "spam", summary: "later"), at: 1_000)
        #expect(attention.server.notification(refilled.id)?.decision?.rateLimited == .admitted, "a token comes back each second")
    }

    /// The daemon says once that an app went over its limit: again only after one of its
    /// notifications was admitted, not for each one over it, nor after one that got through.
    @Test mutating func goingOverTheRateLimitIsSaidOnceAStretch() throws {
        var settings = ChimeSettings()
        settings.center.rateLimit = .init(burst: 1, perMinute: 60)
        attention = Attention(settings: settings)
        func flood(at time: Int64) throws -> [String] {
            try (0..<3).flatMap { index in
                try send(.make(app: "spam", summary: "\(time) \(index)"), at: time).events
                    .compactMap { if case .overRateLimit(let app) = $0 { app } else { nil } }
            }
        }
        #expect(try flood(at: 0) == ["spam"])
        _ = try send(.make(app: "spam", summary: "urgent", hints: ["urgency": .byte(2)]), at: 0)
        #expect(try flood(at: 0).isEmpty, "still over it: the critical one took no token")
        #expect(try flood(at: 1_000) == ["spam"], "admitted once a token came back, then over it again")
    }

    @Test mutating func refusingOverTheLimitIsExcessNotificationGeneration() throws {
        var settings = ChimeSettings()
        settings.center.rateLimit = .init(burst: 1, perMinute: 1, action: .refuse)
        attention = Attention(settings: settings)
        _ = try send(.make(app: "spam", summary: "1"), at: 0)
        #expect(throws: RequestError.self) { try attention.notify(.make(app: "spam", summary: "2"), from: ":1.1", now: clock(0)) }
    }

    /// The apps whose counts changed are taken once; the list kept for the next changes starts empty.
    @Test mutating func changedCountsAreTakenOnce() throws {
        _ = try send(.make(app: "mail", summary: "a"), at: 0)
        #expect(attention.unread.takeChanged() == ["mail"])
        #expect(attention.unread.takeChanged() == [])
        _ = try send(.make(app: "news", summary: "n"), at: 0)
        #expect(attention.unread.takeChanged() == ["news"])
    }

    @Test mutating func unreadCountsFollowWhatTheUserAndTheAppDo() throws {
        let expired = try send(.make(app: "mail", summary: "a", timeout: 1_000), at: 0).id
        let dismissed = try send(.make(app: "mail", summary: "b"), at: 0).id
        let acted = try send(.make(app: "mail", summary: "c", actions: ["default", "Open"]), at: 0).id
        let withdrawn = try send(.make(app: "mail", summary: "d"), at: 0).id
        _ = try send(.make(app: "mail", summary: "e", hints: ["transient": .bool(true)]), at: 0)
        #expect(attention.unread.count("mail") == 4, "transient notifications never count")
        #expect(attention.unread.takeChanged() == ["mail"])

        observe(attention.server.expire(now: .at(2_000)))
        #expect(attention.unread.isUnread(expired), "a banner that timed out stays unread in the center")
        observe(try attention.server.dismiss(dismissed))
        observe(try attention.invoke(acted, key: "", now: clock(2_000)))
        observe(try attention.server.close(withdrawn, caller: ":1.1"))
        #expect(attention.unread.count("mail") == 1)
        observe(attention.readAll(app: "mail"))
        #expect(attention.unread.count("mail") == 0 && attention.unread.byApp.isEmpty)
    }

    @Test mutating func badgesAreHiddenByTheAppOrTheFocus() throws {
        var settings = ChimeSettings()
        var work = FocusMode(name: "work")
        work.hidesBadges = true
        settings.focusModes.append(work)
        attention = Attention(settings: settings)
        _ = try send(.make(app: "mail", summary: "a"), at: 0)
        _ = try send(.make(app: "mail", summary: "b"), at: 0)
        #expect(attention.badge(for: "mail") == Badge(count: 2, visible: true))
        _ = try attention.focusOn("work", until: nil, now: clock(0))
        #expect(attention.badge(for: "mail") == Badge(count: 2, visible: false))
        _ = attention.focusOff(now: clock(0))
        attention.setOverride("mail", "badges", "false")
        #expect(attention.badge(for: "mail") == Badge(count: 2, visible: false))
        #expect(attention.badge(for: "nobody") == Badge(count: 0, visible: false))
    }

    @Test mutating func snoozeTakesItAwayAndBringsItBackWithItsSound() throws {
        let id = try send(.make(app: "mail", summary: "later"), at: 0).id
        let snoozed = attention.snooze(attention.server.notification(id)!, seconds: 600, now: clock(1_000))
        #expect(snoozed.map(\.id) == [id])
        #expect(attention.server.notification(id)?.state == .snoozed(until: 601_000))
        #expect(attention.server.expire(now: .at(60_000)).isEmpty, "a snoozed notification does not expire")
        #expect(attention.server.nextSnoozeEnd == 601_000)
        #expect(attention.wakeSnoozed(now: clock(600_999)).isEmpty)
        let woken = attention.wakeSnoozed(now: clock(601_000))
        #expect(woken.contains(.presented(attention.server.notification(id)!)))
        #expect(sounds(woken) == 1)
        #expect(attention.server.nextSnoozeEnd == nil)
    }

    @Test mutating func restoreBringsBackAClosedNotificationUnderItsId() throws {
        let id = try send(.make(app: "mail", summary: "gone"), at: 0).id
        let closed = try attention.server.dismiss(id)
        guard case .closed(let notification, _) = closed[0] else { Issue.record("not closed"); return }
        let events = attention.presentAgain(notification, now: clock(5_000))
        #expect(attention.server.notification(id)?.state == .presented)
        #expect(events.first?.id == id)
        #expect(attention.server.expire(now: .at(9_999)).isEmpty, "it times out like a new banner")
        #expect(attention.server.expire(now: .at(10_000)).map(\.closedReason) == [.expired])
    }

    /// A notification restored soon after it closed is listed once, as the newest: its id may
    /// still be in the server's order of ids, which drops closed ones lazily.
    @Test mutating func aRestoredNotificationIsListedOnceAsTheNewest() throws {
        let older = try send(.make(app: "mail", summary: "older"), at: 0).id
        let newer = try send(.make(app: "mail", summary: "newer"), at: 1).id
        let third = try send(.make(app: "mail", summary: "third"), at: 2).id
        for id in [older, newer] {
            guard case .closed(let notification, _) = try attention.server.dismiss(id)[0] else { Issue.record("not closed"); return }
            _ = attention.presentAgain(notification, now: clock(3))
        }
        #expect(attention.server.notifications.map(\.id) == [third, older, newer])
    }

    @Test mutating func deletingAnOpenNotificationDismissesIt() throws {
        let id = try send(.make(app: "mail", summary: "x"), at: 0).id
        let events = attention.delete([id, 99])
        #expect(events.map(\.closedReason) == [.dismissed, nil, nil])
        #expect(events.last == .deleted(99))
    }

    @Test mutating func aFloodOfQuietNotificationsStaysWithinTheOpenLimit() throws {
        var settings = ChimeSettings()
        settings.server.maximumOpen = 50
        settings.center.rateLimit = .init(burst: 1, perMinute: 1)
        attention = Attention(settings: settings)
        for index in 0..<500 { _ = try send(.make(app: "spam", summary: "\(index)"), at: 0) }
        #expect(attention.server.count == 50, "each Notify past the limit retires the oldest at once")
        #expect(attention.unread.count("spam") == 500, "retired, they stay unread in the center")
    }
}

@Suite struct RateLimiterTests {
    let limit = CenterSettings.RateLimit(burst: 2, perMinute: 60)

    @Test func eachAppHasItsOwnBucketWhateverTheOrderOfCalls() {
        var limiter = RateLimiter()
        var seen: [String] = []
        for app in ["a", "a", "b", "a", "c", "b", "b", "c", "a"] {
            seen.append(limiter.admit(app, at: .at(0), limit: limit) == .admitted ? "\(app)+" : "\(app)-")
        }
        #expect(seen == ["a+", "a+", "b+", "a-", "c+", "b+", "b-", "c+", "a-"])
        #expect(limiter.admit("a", at: .at(1_000), limit: limit) == .admitted, "a token a second comes back")
    }

    /// Thousands of apps, one notification each (a client making up names): buckets that have
    /// filled again are dropped once the table is large, so it holds only the apps sending now.
    @Test func bucketsOfAppsThatStoppedAreDroppedOnceThereAreMany() {
        var limiter = RateLimiter()
        for index in 0..<5_000 { _ = limiter.admit("app\(index)", at: .at(0), limit: limit) }
        #expect(limiter.tracked == 5_000, "all still refilling: none can be forgotten")
        #expect(limiter.admit("late", at: .at(2_000), limit: limit) == .admitted)
        #expect(limiter.tracked == 1)
        #expect(limiter.admit("app7", at: .at(2_000), limit: limit) == .admitted, "a full bucket again")
        #expect(limiter.tracked == 2)
    }
}

@Suite struct RepeatDetectorTests {
    @Test func forgetsKeysOlderThanTheWindow() {
        var detector = RepeatDetector()
        let request = NotificationRequest.make(summary: "same")
        detector.note(.init(request), id: 1, now: .at(0), window: .seconds(10), capacity: 1_000)
        #expect(detector.earlier(.init(request), now: .at(10_000), window: .seconds(10)) == 1)
        #expect(detector.earlier(.init(request), now: .at(10_001), window: .seconds(10)) == nil)
        for index in 0..<5_000 {
            detector.note(.init(.make(summary: "\(index)")), id: UInt32(index), now: .at(Int64(index) * 100),
                          window: .seconds(10), capacity: 1_000)
        }
        #expect(detector.remembered <= 101, "only the last 10 s of a 100 ms stream: \(detector.remembered)")
    }

    @Test func keepsNoMoreKeysThanItsCapacityTheLatestFirst() {
        var detector = RepeatDetector()
        let keys = (0..<5).map { RepeatDetector.Key(.make(summary: "\($0)")) }
        for (index, key) in keys.enumerated() {
            detector.note(key, id: UInt32(index), now: .at(Int64(index)), window: .seconds(60), capacity: 3)
        }
        // Seen again, the oldest of the three kept outlives the two after it.
        detector.note(keys[2], id: 2, now: .at(10), window: .seconds(60), capacity: 3)
        detector.note(.init(.make(summary: "5")), id: 5, now: .at(11), window: .seconds(60), capacity: 3)
        #expect(detector.remembered == 3)
        let found = keys.map { detector.earlier($0, now: .at(12), window: .seconds(60)) }
        #expect(found == [nil, nil, 2, nil, 4])
    }
}

/// An app's own LauncherEntry count (design section 7a).
@Suite struct OwnBadgeTests {
    @Test func anAppsOwnCountOfZeroReadsItsNotifications() throws {
        var attention = Attention()
        for summary in ["one", "two"] {
            let sent = try attention.notify(.make(app: "chat", summary: summary), from: ":1.1", now: at(.monday, "10:00", wall: 0))
            for event in sent.events { attention.unread.observe(event) }
        }
        #expect(attention.unread.count("chat") == 2)
        let first = attention.ownBadgeSent(by: "chat", count: 4)
        #expect(first.new && first.events.isEmpty)
        #expect(attention.appsWithOwnBadges == ["chat"])
        let zero = attention.ownBadgeSent(by: "chat", count: 0)
        #expect(!zero.new)
        for event in zero.events { attention.unread.observe(event) }
        #expect(attention.unread.count("chat") == 0)
    }
}

/// What reached the person, counted from the core's events (`chimectl report`).
@Suite struct ActivityTallyTests {
    @Test func eachEventCountsWhereItWent() throws {
        var attention = Attention()
        var tally = ActivityTally()
        func send(_ request: NotificationRequest, at ms: Int64) throws -> UInt32 {
            let result = try attention.notify(request, from: ":1.1", now: at(.monday, "10:00", wall: ms))
            for event in result.events { tally.count(event, day: 7) }
            return result.id
        }
        let first = try send(.make(app: "mail", summary: "one"), at: 0)
        // Ten minutes apart: past the thread's cooldown, each interrupts alone.
        _ = try send(.make(app: "mail", summary: "two"), at: 600_000)
        _ = try send(.make(app: "mail", summary: "one, edited", replaces: first), at: 1_200_000)
        _ = try send(.make(app: "mail", summary: "later", hints: ["urgency": .byte(0)]), at: 1_800_000)
        _ = try attention.focusOn("dnd", until: nil, now: at(.monday, "10:30", wall: 2_400_000))
        _ = try send(.make(app: "chat", summary: "held"), at: 3_000_000)
        let taken = tally.take()
        #expect(taken.counts[.init(day: 7, app: "mail")] == ActivityCounts(banners: 2, sounds: 2, updates: 1, quiet: 1))
        #expect(taken.counts[.init(day: 7, app: "chat")] == ActivityCounts(held: 1))
        #expect(taken.names["chat"] == "chat")
        #expect(tally.isEmpty, "taken once")
    }
}
