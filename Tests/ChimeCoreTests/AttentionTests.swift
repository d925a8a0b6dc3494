import Testing
@testable import ChimeCore

/// The attention model's flows, with a manual clock.
@Suite struct AttentionTests {
    var attention: Attention

    init() {
        var settings = ChimeSettings()
        var work = FocusMode(name: "work")
        work.allowedApps = ["slack"]
        settings.focusModes.append(work)
        settings.summaryTimes = [ClockTime(parsing: "18:00")!]
        attention = Attention(settings: settings)
    }

    func ownNotifications(_ events: [ServerEvent]) -> [Notification] {
        events.compactMap { if case .presented(let n) = $0, n.sender == Attention.selfSender { n } else { nil } }
    }

    @Test mutating func deniedAppsGetAnIdAndAreClosedAtOnce() throws {
        attention.setOverride("spam", "authorization", "denied")
        let (id, events) = try attention.notify(.make(app: "spam"), from: ":1.1", now: at(.monday, "10:00"))
        #expect(id == 1)
        #expect(events.map(\.closedReason) == [.dismissed])
        #expect(attention.server.count == 0)
    }

    /// An app's timeout, as the user sets it, wins over what the app asks: a short one, "never",
    /// and urgency critical (which otherwise never expires) all give way. Critical banners stay.
    @Test mutating func anAppsTimeoutWinsOverWhatTheAppAsksButCriticalBannersStay() throws {
        let now = at(.monday, "10:00")
        attention.setOverride("chat", "timeout", "8000")
        attention.setOverride("pager", "timeout", "8000")
        attention.setOverride("pager", "critical-alerts", "true")
        let short = try attention.notify(.make(app: "chat", summary: "a", timeout: 3_000), from: ":1.1", now: now).id
        let forever = try attention.notify(.make(app: "chat", summary: "b", timeout: 0), from: ":1.1", now: now).id
        let urgent = try attention.notify(.make(app: "chat", summary: "c", hints: ["urgency": .byte(2)]), from: ":1.1", now: now).id
        let critical = try attention.notify(.make(app: "pager", summary: "d", hints: ["urgency": .byte(2)]), from: ":1.1", now: now).id
        let other = try attention.notify(.make(app: "mail", summary: "e", timeout: 3_000), from: ":1.1", now: now).id
        #expect(attention.server.notification(short)?.expires == now.monotonic + .seconds(8))
        #expect(attention.server.notification(forever)?.expires == now.monotonic + .seconds(8))
        #expect(attention.server.notification(urgent)?.expires == now.monotonic + .seconds(8))
        #expect(attention.server.notification(critical)?.expires == nil)
        #expect(attention.server.notification(other)?.expires == now.monotonic + .seconds(3), "other apps as they ask")

        attention.setOverride("mail", "timeout", "never")
        let kept = try attention.notify(.make(app: "mail", summary: "f", timeout: 3_000), from: ":1.1", now: now).id
        #expect(attention.server.notification(kept)?.expires == nil)
        attention.setOverride("mail", "timeout", "default")
        let asked = try attention.notify(.make(app: "mail", summary: "g"), from: ":1.1", now: now).id
        #expect(attention.server.notification(asked)?.expires == now.monotonic + attention.server.settings.defaultTimeout)
    }

    @Test func anAppsTimeoutIsMillisecondsNeverOrDefault() {
        var settings = AppSettings()
        #expect(settings.set("timeout", to: "2500") == nil && settings.timeout == .after(.milliseconds(2_500)))
        #expect(settings.textValues.first { $0.key == "timeout" }?.value == "2500")
        #expect(settings.set("timeout", to: "Never") == nil && settings.timeout == .never)
        #expect(settings.set("timeout", to: "default") == nil && settings.timeout == nil)
        for bad in ["0", "-5", "5s", ""] {
            #expect(settings.set("timeout", to: bad) == "'\(bad)' is not a number of milliseconds, never or default")
        }
    }

    /// Keep and Turn Off are offered with each notification of a provisional app (as Apple's
    /// center does), never added to the app's own actions; a repeat carries them too.
    @Test mutating func provisionalAppsAreQuietAndEachNotificationOffersKeepAndTurnOff() throws {
        attention = Attention(settings: { var s = ChimeSettings(); s.defaultAuthorization = .provisional; return s }())
        let first = try attention.notify(.make(app: "news"), from: ":1.1", now: at(.monday, "10:00"))
        let notification = try #require(attention.server.notification(first.id))
        #expect(notification.state == .quiet)
        #expect(notification.request.actions.isEmpty, "the app's actions are the app's")
        #expect(notification.decision?.offers.flatMap(\.actions).map(\.key) == [Offer.keep, Offer.turnOff])
        let again = try attention.notify(.make(app: "news"), from: ":1.1", now: at(.monday, "10:00"))
        #expect(attention.server.notification(again.id)?.decision?.offers.first?.offers(Offer.keep) == true, "a repeat offers it too")
        #expect(notification.decision?.reasons.map(\.text).first == "level passive: news is provisional, quiet until you choose Keep (authorization = provisional)")

        // Keep: from now on the app is allowed and its notifications are presented; the
        // notification stays, offering it no more.
        let events = try attention.invoke(first.id, key: Offer.keep, now: at(.monday, "10:02"))
        #expect(events.allSatisfy { $0.closedReason == nil })
        #expect(attention.server.notification(first.id)?.decision?.offers.isEmpty == true)
        #expect(attention.apps.settings(for: "news", config: attention.settings).authorization == .allowed)
        let third = try attention.notify(.make(app: "news"), from: ":1.1", now: at(.monday, "10:03"))
        #expect(attention.server.notification(third.id)?.state == .presented)
        #expect(attention.server.notification(third.id)?.decision?.offers.isEmpty == true)
    }

    @Test mutating func turnOffDeniesTheProvisionalApp() throws {
        attention = Attention(settings: { var s = ChimeSettings(); s.defaultAuthorization = .provisional; return s }())
        let first = try attention.notify(.make(app: "news"), from: ":1.1", now: at(.monday, "10:00"))
        let events = try attention.invoke(first.id, key: Offer.turnOff, now: at(.monday, "10:01"))
        #expect(attention.apps.settings(for: "news", config: attention.settings).authorization == .denied)
        #expect(events.contains(.appStateChanged), "apps.state keeps it")
    }

    /// What time-sensitive means is said with the app's first one, on it (an offer in its menu,
    /// its panel entry and `show`), never as a notification of Chime's own; taking it turns
    /// time-sensitive off for the app and leaves the notification as it was.
    @Test mutating func theFirstTimeSensitiveNotificationCarriesItsExplanationAndTurnOff() throws {
        let first = try attention.notify(.make(app: "alarm", hints: ["urgency": .byte(2)]), from: ":1.1", now: at(.monday, "10:00"))
        #expect(ownNotifications(first.events).isEmpty, "no banner of Chime's own")
        let offer = try #require(attention.server.notification(first.id)?.decision?.offers.first)
        #expect(offer.actions.map(\.key) == [Offer.turnOffTimeSensitive] && offer.text.contains("alarm"))
        let again = try attention.notify(.make(app: "alarm", summary: "again", hints: ["urgency": .byte(2)]), from: ":1.1", now: at(.monday, "10:01"))
        #expect(attention.server.notification(again.id)?.decision?.offers.isEmpty == true, "said once")
        let taken = try attention.invoke(first.id, key: Offer.turnOffTimeSensitive, now: at(.monday, "10:02"))
        #expect(attention.server.notification(first.id)?.decision?.offers.isEmpty == true, "offered no more")
        #expect(!taken.contains { if case .closed = $0 { true } else { false } }, "the notification stays")
        let later = try attention.notify(.make(app: "alarm", summary: "later", hints: ["urgency": .byte(2)]), from: ":1.1", now: at(.monday, "10:03"))
        #expect(attention.server.notification(later.id)?.decision?.level == .active)
    }

    @Test mutating func overTheBudgetTimeSensitiveBecomesActiveAndTheUserIsAskedOnce() throws {
        var offered: [UInt32] = []
        var levels: [InterruptionLevel?] = []
        for minute in 0..<6 {
            let now = at(.monday, "10:0\(minute)", wall: Int64(minute) * 60_000)
            let result = try attention.notify(.make(app: "chat", summary: "\(minute)", hints: ["urgency": .byte(2)]), from: ":1.1", now: now)
            levels.append(attention.server.notification(result.id)?.decision?.level)
            if attention.server.notification(result.id)?.decision?.offers.contains(where: { $0.offers(Offer.letTimeSensitiveThrough) }) == true {
                offered.append(result.id)
            }
            #expect(ownNotifications(result.events).isEmpty)
        }
        #expect(levels == [.timeSensitive, .timeSensitive, .timeSensitive, .active, .active, .active])
        #expect(offered.count == 1, "said with the one that crossed")
        // "Let Them Through" restores time-sensitive delivery for good.
        let crossed = try #require(offered.first)
        _ = try attention.invoke(crossed, key: Offer.letTimeSensitiveThrough, now: at(.monday, "10:07", wall: 420_000))
        let after = try attention.notify(.make(app: "chat", hints: ["urgency": .byte(2)]), from: ":1.1", now: at(.monday, "10:08", wall: 480_000))
        #expect(attention.server.notification(after.id)?.decision?.level == .timeSensitive)
    }

    @Test mutating func theBudgetIsPerHour() throws {
        for (index, wall) in [0, 1_000, 2_000, 3_700_000].enumerated() {
            let result = try attention.notify(.make(app: "cal", hints: ["urgency": .byte(2)]), from: ":1.1",
                                              now: at(.monday, "10:0\(index)", wall: Int64(wall)))
            #expect(attention.server.notification(result.id)?.decision?.level == .timeSensitive)
        }
    }

    @Test mutating func focusHoldsWhatItDoesNotAllowAndSummarisesWhenItEnds() throws {
        let on = try attention.focusOn("work", until: nil, now: at(.monday, "10:00"))
        #expect(on == [.focusChanged("work")] && attention.currentFocus?.name == "work")
        let mail = try attention.notify(.make(app: "mail"), from: ":1.1", now: at(.monday, "10:01"))
        let chat = try attention.notify(.make(app: "slack"), from: ":1.2", now: at(.monday, "10:02"))
        let news = try attention.notify(.make(app: "news"), from: ":1.3", now: at(.monday, "10:03"))
        #expect(attention.server.notification(mail.id)?.state == .heldByFocus("work"))
        #expect(attention.server.notification(news.id)?.state == .heldByFocus("work"))
        #expect(attention.server.notification(chat.id)?.state == .presented)
        let events = attention.focusOff(now: at(.monday, "11:00"))
        let summary = try #require(ownNotifications(events).first)
        #expect(summary.request.summary == "While Work was on")
        #expect(summary.request.body == "2 notifications from 2 apps")
        #expect(attention.server.notification(mail.id)?.state == .quiet, "held ones go quietly to the center")
        #expect(events.contains { if case .stored(let n) = $0 { n.id == mail.id && n.state == .quiet } else { false } })
        let closed = attention.server.expire(now: at(.monday, "11:00").monotonic + .seconds(5))
        #expect(Set(closed.compactMap(\.closedID)).isSuperset(of: [mail.id, news.id]), "and end for their apps at their timeouts")
    }

    /// "While Work was on" offers Show, which lists what was held by app (a hidden preview as
    /// its placeholder); it goes by itself like any notification that asks nothing.
    @Test mutating func theNotificationAfterAFocusShowsWhatItHeld() throws {
        _ = try attention.focusOn("work", until: nil, now: at(.monday, "10:00"))
        _ = try attention.notify(.make(app: "mail", summary: "Invoice 42"), from: ":1.1", now: at(.monday, "10:01"))
        attention.setOverride("bank", "previews", "never")
        _ = try attention.notify(.make(app: "bank", summary: "Your code is 4711"), from: ":1.1", now: at(.monday, "10:02"))
        let ended = try #require(ownNotifications(attention.focusOff(now: at(.monday, "11:00"))).first)
        #expect(ended.request.actions.map(\.label) == ["Show"])
        #expect(ended.expires != nil, "it goes by itself")
        let shown = try #require(ownNotifications(try attention.invoke(ended.id, key: "chime:show-held", now: at(.monday, "11:01"))).first)
        #expect(shown.request.summary == "Held while Work was on: 2 notifications")
        #expect(shown.request.body.contains("Invoice 42") && shown.request.body.contains("bank"))
        #expect(!shown.request.body.contains("4711"), "a hidden preview stays hidden: \(shown.request.body)")
        #expect(attention.server.notification(ended.id) == nil)
    }

    @Test mutating func unknownFocusNamesAreRefused() {
        #expect(throws: RequestError.unknownName("no Focus named 'gym'; Focus modes: dnd, sharing, fullscreen, work")) {
            try attention.focusOn("gym", until: nil, now: at(.monday, "10:00"))
        }
    }

    @Test mutating func summaryAppsWaitForTheDeliveryTime() throws {
        attention.setOverride("news", "delivery", "summary")
        _ = attention.tick(now: at(.monday, "17:58"))
        let low = try attention.notify(.make(app: "news", summary: "Low", hints: ["x-chime-relevance": .double(0.2)]), from: ":1.1", now: at(.monday, "17:58"))
        let top = try attention.notify(.make(app: "news", summary: "Top", hints: ["x-chime-relevance": .double(0.9)]), from: ":1.1", now: at(.monday, "17:59"))
        let urgent = try attention.notify(.make(app: "news", summary: "Now", hints: ["urgency": .byte(2)]), from: ":1.1", now: at(.monday, "17:59"))
        #expect(attention.server.notification(urgent.id)?.state == .presented)
        #expect(attention.summaryQueue.map(\.id) == [top.id, low.id])
        #expect(ownNotifications(attention.tick(now: at(.monday, "17:59"))).isEmpty)
        let delivery = attention.tick(now: at(.monday, "18:00"))
        #expect(delivery.filter { if case .stored(let n) = $0 { n.state == .summarized } else { false } }.count == 2)
        let summary = try #require(ownNotifications(delivery).first)
        #expect(summary.request.summary == "Scheduled Summary: 2 notifications")
        #expect(summary.request.body == "<b>news: Top</b>\nnews (1 more): Low", "each item said once")
        #expect(attention.summaryQueue.isEmpty)
        #expect(attention.server.notification(low.id)?.state == .summarized)
    }

    /// Only schedules, summary times and a Focus on until a time change with the clock: without
    /// them chimed sleeps through the minutes, and a summary time added then counts from the
    /// next tick, not from the last one before the pause.
    @Test func onlySchedulesSummariesAndTimedFocusFollowTheClock() throws {
        var attention = Attention(settings: ChimeSettings())
        #expect(!attention.followsTheClock)
        _ = try attention.focusOn("dnd", until: nil, now: at(.monday, "10:00"))
        #expect(!attention.followsTheClock)
        _ = try attention.focusOn("dnd", until: 1_000, now: at(.monday, "10:00"))
        #expect(attention.followsTheClock)
        _ = attention.focusOff(now: at(.monday, "10:00"))
        _ = attention.tick(now: at(.monday, "10:01"))
        #expect(!attention.followsTheClock)

        var settings = attention.settings
        settings.focusModes.append(FocusMode(name: "work"))
        settings.focusModes[settings.focusModes.count - 1].schedules = [try FocusSchedule.parse("mon 09:00-17:00").get()]
        var scheduled = Attention(settings: settings)
        #expect(scheduled.followsTheClock)
        _ = scheduled.tick(now: at(.monday, "10:00"))

        attention.setOverride("news", "delivery", "summary")
        _ = try attention.notify(.make(app: "news", summary: "Held"), from: ":1.1", now: at(.monday, "10:01"))
        settings = attention.settings
        settings.summaryTimes = [ClockTime(parsing: "12:00")!]
        _ = attention.apply(settings, now: at(.monday, "13:00"))
        #expect(attention.followsTheClock)
        #expect(ownNotifications(attention.tick(now: at(.monday, "13:00"))).isEmpty, "12:00 passed while nothing ticked")
        #expect(ownNotifications(attention.tick(now: at(day: 101, .tuesday, "12:00"))).count == 1)
    }

    @Test mutating func aScheduledFocusStartsAndEndsWithTheClock() throws {
        var settings = attention.settings
        settings.focusModes[settings.focusModes.firstIndex { $0.name == "work" }!].schedules = [try FocusSchedule.parse("mon-fri 22:00-07:00").get()]
        _ = attention.apply(settings, now: at(.monday, "21:00"))
        _ = attention.tick(now: at(.monday, "21:59"))
        #expect(attention.currentFocus == nil)
        _ = attention.tick(now: at(.monday, "22:00"))
        #expect(attention.currentFocus == .init(name: "work", source: .schedule, until: nil))
        _ = attention.tick(now: at(day: 101, .tuesday, "07:00"))
        #expect(attention.currentFocus == nil)
    }
}
