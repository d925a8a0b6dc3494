import Testing
@testable import ChimeCore

/// Ids: every call gets one of its own, and where they are reserved, each block is said
/// (`ServerEvent.idsReserved`) before an id of it is given out.
@Suite struct IDCounterTests {
    let t0 = Instant.at(1_000)

    /// Every call gets an id of its own, a repeat too (the spec: ids are unique): the repeat is
    /// merged only where the person sees it, and each stays open for its app.
    @Test func aRepeatHasItsOwnId() throws {
        var attention = Attention()
        let now = at(.monday, "10:00", wall: 1_000)
        let request = NotificationRequest.make(summary: "Build failed")
        let ids = try (0..<3).map { _ in try attention.notify(request, from: ":1.1", now: now).id }
        #expect(Set(ids).count == 3)
        #expect(attention.server.notification(ids[2])?.repeatCount == 3, "merged on screen: ×3")
        #expect(ids.allSatisfy { attention.server.notification($0) != nil }, "each open for its app")
    }

    @Test func aBlockIsReservedBeforeAnIdOfItIsGiven() throws {
        var server = NotificationServer()
        server.ids = IDCounter(after: 10, reserving: true)
        let first = try server.notify(.make(), from: ":1.1", now: t0)
        #expect(first.id == 11 && first.events.first == .idsReserved(through: 11 + IDCounter.block))
        while server.ids.current < 11 + IDCounter.block {
            let next = try server.notify(.make(), from: ":1.1", now: t0)
            #expect(!next.events.contains { if case .idsReserved = $0 { true } else { false } }, "\(next.id)")
        }
        // Past the reservation, the next block is said before its first id goes out; a
        // notification closed at once (a denied app) takes an id too.
        let past = server.discard(.make(), from: ":1.1", now: t0)
        #expect(past.events.first == .idsReserved(through: past.id + IDCounter.block))
    }

    @Test func withoutReservingNothingIsSaid() throws {
        var server = NotificationServer(lastID: 41)
        let result = try server.notify(.make(), from: ":1.1", now: t0)
        #expect(result.id == 42 && result.events.allSatisfy { if case .idsReserved = $0 { false } else { true } })
    }

    @Test func theCounterSkipsZeroAndWhatIsTakenAtTheWrap() {
        var ids = IDCounter(after: UInt32.max - 1, reserving: true)
        #expect(ids.next().id == UInt32.max)
        let wrapped = ids.next { $0 == 1 }
        #expect(wrapped.id == 2 && wrapped.reserved == 2 + IDCounter.block, "a new block after the wrap")
    }
}
