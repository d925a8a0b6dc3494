import Testing
@testable import ChimeCore

/// Every way a notification on screen can change, with a manual clock: what the screen, the
/// sound and the unread count do. A banner the model no longer shows always comes down.
@Suite struct ScreenTransitionTests {
    var attention: Attention
    let start = at(.monday, "10:00", wall: 1_000_000)
    static let tag = "x-dunst-stack-tag"

    init() {
        var settings = ChimeSettings()
        settings.focusModes.append(FocusMode(name: "work"))
        settings.center.rateLimit = .init(burst: 3, perMinute: 1)
        settings.sounds.minimumGap = 0
        attention = Attention(settings: settings)
    }

    func later(_ seconds: Int64) -> Now {
        var now = start
        now.monotonic = now.monotonic + .seconds(seconds)
        now.wall += seconds * 1_000
        return now
    }

    /// A notification of app "volume" under stack tag "level" (a thread of its own, apart from the
    /// app's untagged ones).
    static func volume(_ text: String, level: InterruptionLevel = .active, interrupt: Bool = false) -> NotificationRequest {
        var hints: [String: BusValue] = [tag: .string("level"), "x-chime-interruption-level": .string(level.rawValue)]
        if interrupt { hints["x-chime-interrupt"] = .bool(true) }
        return .make(app: "volume", summary: text, hints: hints)
    }

    /// What one update of a presented notification does, by what changed in between.
    struct Row: Sendable, CustomTestStringConvertible {
        enum Change: Sendable { case nothing, overRateLimit, focusTurnedOn, bannersTurnedOff, passive, interrupting }
        var change: Change
        var screen: ScreenChange
        var state: NotificationState
        var sound: Bool
        var testDescription: String { "\(change)" }
    }

    static let rows: [Row] = [
        Row(change: .nothing, screen: .update, state: .presented, sound: false),
        Row(change: .interrupting, screen: .update, state: .presented, sound: true),
        Row(change: .overRateLimit, screen: .withdraw, state: .quiet, sound: false),
        Row(change: .focusTurnedOn, screen: .withdraw, state: .heldByFocus("work"), sound: false),
        Row(change: .bannersTurnedOff, screen: .withdraw, state: .quiet, sound: false),
        Row(change: .passive, screen: .withdraw, state: .quiet, sound: false),
    ]

    @Test(arguments: rows) mutating func anUpdateOfAPresentedNotification(row: Row) throws {
        let first = try attention.notify(Self.volume("10%"), from: ":1.1", now: start)
        #expect(first.events.contains { if case .presented = $0 { true } else { false } })
        #expect(first.events.contains { if case .playSound = $0 { true } else { false } })
        var update = Self.volume("20%", interrupt: row.change == .interrupting)
        switch row.change {
        case .nothing, .interrupting: break
        case .overRateLimit:
            for n in 0..<3 { _ = try attention.notify(.make(app: "volume", summary: "other \(n)"), from: ":1.1", now: start) }
        case .focusTurnedOn: _ = try attention.focusOn("work", until: nil, now: start)
        case .bannersTurnedOff: attention.setOverride("volume", "banners", "false")
        case .passive: update = Self.volume("20%", level: .passive)
        }
        let (id, events) = try attention.notify(update, from: ":1.1", now: later(1))
        #expect(id == first.id, "updated in place")
        let notification = try #require(attention.server.notification(id))
        #expect(notification.state == row.state)
        #expect(ScreenChange(before: .presented, after: notification.state) == row.screen)
        switch row.screen {
        case .update: #expect(events.contains(.presented(notification)))
        case .withdraw: #expect(events.contains(.withdrawn(notification)), "the banner it replaces comes down")
        case .show, .none: Issue.record("a presented notification is updated or withdrawn")
        }
        #expect(events.contains { if case .playSound = $0 { true } else { false } } == row.sound)
    }

    @Test func theScreenFollowsWhatWasShownAndWhatIsShown() {
        #expect(ScreenChange(before: nil, after: .presented) == .show)
        #expect(ScreenChange(before: .quiet, after: .presented) == .show)
        #expect(ScreenChange(before: .heldByFocus("work"), after: .presented) == .show)
        #expect(ScreenChange(before: .presented, after: .presented) == .update)
        #expect(ScreenChange(before: .presented, after: .quiet) == .withdraw)
        #expect(ScreenChange(before: .presented, after: .heldForSummary) == .withdraw)
        #expect(ScreenChange(before: nil, after: .quiet) == .none)
        #expect(ScreenChange(before: .quiet, after: .heldByFocus("work")) == .none)
    }

    /// A quiet notification replaced by one that is shown gets its banner then.
    @Test mutating func aQuietNotificationUpdatedToOneShownIsShown() throws {
        let quiet = try attention.notify(Self.volume("10%", level: .passive), from: ":1.1", now: start)
        #expect(quiet.events.contains { if case .stored = $0 { true } else { false } })
        let (id, events) = try attention.notify(Self.volume("20%"), from: ":1.1", now: later(1))
        #expect(id == quiet.id)
        #expect(events.contains { if case .presented = $0 { true } else { false } })
    }

    /// An update in place leaves a read notification read, and an unread one unread; one the app
    /// marks `x-chime-interrupt` is unread again.
    @Test mutating func anUpdateInPlaceKeepsWhatWasReadRead() throws {
        let (id, events) = try attention.notify(Self.volume("10%"), from: ":1.1", now: start)
        events.forEach { attention.unread.observe($0) }
        #expect(attention.unread.isUnread(id))
        attention.read([id]).forEach { attention.unread.observe($0) }
        for (n, interrupt) in [(20, false), (30, true)] {
            let update = try attention.notify(Self.volume("\(n)%", interrupt: interrupt), from: ":1.1", now: later(Int64(n)))
            update.events.forEach { attention.unread.observe($0) }
            #expect(attention.unread.isUnread(id) == interrupt)
        }
    }

    /// Forty updates of one stack tag, as a volume key held down: one sound.
    @Test mutating func fortyUpdatesOfOneStackTagMakeOneSound() throws {
        var settings = attention.settings
        settings.center.rateLimit = .init()
        _ = attention.apply(settings, now: start)
        var sounds = 0
        for n in 0..<40 {
            let events = try attention.notify(Self.volume("\(n)%"), from: ":1.1", now: later(Int64(n))).events
            sounds += events.filter { if case .playSound = $0 { true } else { false } }.count
        }
        #expect(sounds == 1)
        #expect(attention.server.notifications.map(\.state) == [.presented])
    }

    /// Every notification ends for its app at its timeout, shown or not; what is held stays
    /// until its Focus or summary lets it go.
    @Test mutating func aNotificationNeverShownEndsForItsAppAtItsTimeout() throws {
        let passive = try attention.notify(.make(app: "a", summary: "passive", timeout: 1_000,
                                                 hints: ["urgency": .byte(0)]), from: ":1.1", now: start).id
        #expect(attention.server.notification(passive)?.state == .quiet)
        _ = try attention.focusOn("work", until: nil, now: start)
        let held = try attention.notify(.make(app: "b", summary: "held", timeout: 1_000), from: ":1.1", now: start).id
        #expect(attention.server.notification(held)?.state == .heldByFocus("work"))
        let events = attention.server.expire(now: later(1).monotonic)
        #expect(events.map(\.closedID) == [passive])
        #expect(events.map(\.closedReason) == [.expired])
        #expect(attention.server.notification(held) != nil)
    }

    /// While the user is away banners wait; a notification never shown still ends for its app.
    @Test mutating func whileAwayAQuietNotificationStillEnds() throws {
        attention.server.setAway(true, now: start.monotonic)
        let banner = try attention.notify(.make(app: "a", summary: "banner", timeout: 1_000), from: ":1.1", now: start).id
        let quiet = try attention.notify(.make(app: "a", summary: "quiet", timeout: 1_000, hints: ["urgency": .byte(0)]),
                                         from: ":1.1", now: start).id
        #expect(attention.server.nextDeadline == later(1).monotonic)
        #expect(attention.server.expire(now: later(1).monotonic).map(\.closedID) == [quiet])
        #expect(attention.server.notification(banner) != nil)
    }
}
