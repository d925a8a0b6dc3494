import Testing
@testable import ChimeCore

/// One banner for a burst: within its thread's cooldown a new notification takes the thread's
/// banner over quietly; what must get through, or asks to, still interrupts. A manual clock.
@Suite struct ThreadCooldownTests {
    var attention = Attention()
    let start = at(.monday, "10:00", wall: 1_000_000)

    func later(_ seconds: Int64) -> Now {
        var now = start
        now.monotonic = now.monotonic + .seconds(seconds)
        now.wall += seconds * 1_000
        return now
    }

    static func message(_ text: String, thread: String = "alex", hints: [String: BusValue] = [:]) -> NotificationRequest {
        .make(app: "chat", summary: "Alex", body: text, timeout: 0,
              hints: hints.merging(["x-chime-thread": .string(thread), "category": .string("im.received")]) { given, _ in given })
    }

    static func sounded(_ events: [ServerEvent]) -> Bool { events.contains { if case .playSound = $0 { true } else { false } } }

    @Test mutating func aBurstInOneThreadInterruptsOnce() throws {
        let first = try attention.notify(Self.message("hi"), from: ":1.1", now: start)
        #expect(Self.sounded(first.events))
        var banner = first.id
        for n in 1..<20 {
            let (id, events) = try attention.notify(Self.message("message \(n)"), from: ":1.1", now: later(Int64(n)))
            #expect(id != banner, "each is its own entry")
            #expect(events.contains { if case .updated(let shown, let previous) = $0 { shown.id == id && previous == banner } else { false } })
            #expect(!Self.sounded(events))
            banner = id
        }
        #expect(attention.server.notifications.filter { $0.state == .presented }.map(\.id) == [banner], "one banner")
        #expect(attention.server.notification(banner)?.threadCount == 20, "it stands for the twenty")
        #expect(attention.server.notifications.count == 20)
    }

    @Test mutating func timeSensitiveAndTheAppsOwnAskStillInterrupt() throws {
        _ = try attention.notify(Self.message("hi"), from: ":1.1", now: start)
        let urgent = try attention.notify(Self.message("call me", hints: ["urgency": .byte(2)]), from: ":1.1", now: later(1))
        #expect(Self.sounded(urgent.events))
        #expect(urgent.events.contains { if case .presented(let n) = $0 { n.id == urgent.id } else { false } })
        let asked = try attention.notify(Self.message("look", hints: ["x-chime-interrupt": .bool(true)]), from: ":1.1", now: later(2))
        #expect(Self.sounded(asked.events))
    }

    @Test mutating func afterTheCooldownTheThreadInterruptsAgain() throws {
        _ = try attention.notify(Self.message("hi"), from: ":1.1", now: start)
        #expect(!Self.sounded(try attention.notify(Self.message("again"), from: ":1.1", now: later(119)).events))
        #expect(Self.sounded(try attention.notify(Self.message("later"), from: ":1.1", now: later(120)).events),
                "two minutes from the last interruption, not from the last message")
    }

    @Test mutating func otherThreadsAndAnAppWithoutACooldownAreTheirOwn() throws {
        _ = try attention.notify(Self.message("hi"), from: ":1.1", now: start)
        let other = try attention.notify(Self.message("hello", thread: "sam"), from: ":1.1", now: later(1))
        #expect(Self.sounded(other.events))
        attention.setOverride("chat", "thread-cooldown", "0")
        #expect(Self.sounded(try attention.notify(Self.message("more"), from: ":1.1", now: later(2)).events))
    }

    /// The thread's banner was closed: the next message within the cooldown gets a banner of its
    /// own, quietly.
    @Test mutating func aThreadWhoseBannerWentShowsTheNextQuietly() throws {
        let first = try attention.notify(Self.message("hi"), from: ":1.1", now: start)
        _ = try attention.server.dismiss(first.id)
        let next = try attention.notify(Self.message("still there?"), from: ":1.1", now: later(5))
        #expect(next.events.contains { if case .presented(let n) = $0 { n.id == next.id } else { false } })
        #expect(!Self.sounded(next.events))
    }
}
