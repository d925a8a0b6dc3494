import Testing
@testable import ChimeCore

/// A player's track change is not news (design section 25): a notification from an app whose
/// media player plays the track its text names is passive, not unread, and takes the place of
/// the app's previous one; its other notifications are as any app's. A manual clock.
@Suite struct NowPlayingTests {
    var attention = Attention()
    let start = at(.monday, "10:00", wall: 1_000_000)

    init() {
        var player = MediaPlayer(busName: "org.mpris.MediaPlayer2.music", owner: ":1.7")
        player.title = "Song A"
        player.artists = ["The Band"]
        player.desktopEntry = "music"
        attention.players = [player]
    }

    func later(_ seconds: Int64) -> Now {
        var now = start
        now.monotonic = now.monotonic + .seconds(seconds)
        now.wall += seconds * 1_000
        return now
    }

    mutating func play(_ title: String) { attention.players[0].title = title }

    static func request(_ summary: String, _ body: String = "", hints: [String: BusValue] = [:]) -> NotificationRequest {
        .make(app: "Music", summary: summary, body: body, hints: hints)
    }

    static func stored(_ events: [ServerEvent]) -> Notification? {
        for event in events { if case .stored(let notification) = event { return notification } }
        return nil
    }

    @Test mutating func theTrackItNamesMakesItPassiveAndNotUnread() throws {
        let (id, events) = try attention.notify(Self.request("Now playing", "song a — The Band"), from: ":1.7", now: start)
        let decision = try #require(Self.stored(events)?.decision)
        #expect(decision.level == .passive && !decision.banner && !decision.sound)
        #expect(decision.nowPlaying == "Song A")
        #expect(!decision.unread && decision.inCenter)
        #expect(decision.reasons.map(\.text).first?.contains("now playing") == true, "\(decision.reasons.map(\.text))")
        #expect(!attention.unread.isUnread(id))
    }

    @Test mutating func theNextTrackTakesThePlaceOfThePreviousOne() throws {
        let first = try attention.notify(Self.request("Now playing: Song A"), from: ":1.7", now: start).id
        play("Song B")
        let (second, events) = try attention.notify(Self.request("Now playing: Song B"), from: ":1.7", now: later(200))
        #expect(second != first)
        #expect(events.contains(.deleted(first)), "the center keeps one per app: \(events)")
        #expect(events.contains { $0.closedID == first && $0.closedReason == .undefined })
        #expect(attention.server.notification(second) != nil)
    }

    @Test mutating func otherNotificationsOfThePlayerAreAsAnyApps() throws {
        let (_, events) = try attention.notify(Self.request("Download failed", "disk full"), from: ":1.7", now: start)
        let presented = events.contains { if case .presented(let n) = $0 { n.decision?.level == .active } else { false } }
        #expect(presented)
    }

    @Test mutating func byDesktopEntryFromAnotherConnection() throws {
        let hints: [String: BusValue] = ["desktop-entry": .string("music")]
        let (_, events) = try attention.notify(Self.request("The Band", "Song A", hints: hints), from: ":1.99", now: start)
        #expect(Self.stored(events)?.decision?.nowPlaying == "Song A")
        // Another app naming the same song is news.
        let (_, other) = try attention.notify(.make(app: "chat", summary: "listen to Song A"), from: ":1.50", now: later(1))
        #expect(Self.stored(other) == nil)
    }

    @Test mutating func aSettingTurnsItOff() throws {
        var settings = ChimeSettings()
        settings.apps["Music"] = ["now-playing": "false"]
        _ = attention.apply(settings, now: start)
        let (_, events) = try attention.notify(Self.request("Now playing: Song A"), from: ":1.7", now: start)
        #expect(Self.stored(events) == nil, "active again: \(events)")
        settings = ChimeSettings()
        settings.nowPlaying = false
        _ = attention.apply(settings, now: start)
        let (_, global) = try attention.notify(Self.request("Now playing: Song A"), from: ":1.7", now: later(300))
        #expect(Self.stored(global) == nil)
    }

    @Test mutating func withThePlayerGoneTheSameTextIsActive() throws {
        attention.players = []
        let (_, events) = try attention.notify(Self.request("Now playing: Song A"), from: ":1.7", now: start)
        #expect(Self.stored(events) == nil)
    }

    @Test func replayTakesTheTrackFromTheFacts() throws {
        var context = DeliveryDecision.Context(app: AppSettings())
        context.nowPlaying = "Song A"
        let decision = DeliveryDecision.decide(Self.request("Now playing: Song A"), identity: "Music", context: context)
        let facts = try #require(DecisionFacts(encoded: decision.facts.encoded))
        #expect(facts.nowPlaying == "Song A")
    }
}
