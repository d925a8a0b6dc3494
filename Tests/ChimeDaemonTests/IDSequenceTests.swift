import ChimeCore
import Testing
@testable import ChimeDaemon

/// chimed's one source of ids, which its bus thread and the server share: every copy of a server
/// draws from it, and each block of ids is reserved before one of it is given out.
@Suite struct IDSequenceTests {
    @Test func everyCopyOfAServerAndTheBusThreadDrawFromOneSequence() throws {
        let ids = IDSequence(after: 41)
        var server = NotificationServer(ids: ids)
        var copy = server
        #expect(ids.next() == 42, "the bus thread's")
        #expect(try copy.notify(.make(), from: ":1.1", now: Instant(milliseconds: 1_000)).id == 43, "a copy's")
        #expect(try server.notify(.make(), from: ":1.1", now: Instant(milliseconds: 1_000)).id == 44)
        #expect(ids.current == 44)
    }

    @Test func aBlockIsReservedBeforeAnIdOfItIsGiven() {
        let ids = IDSequence(after: 10)
        let marks = Marks()
        ids.keep { marks.add($0) }
        #expect(ids.next() == 11 && marks.all == [11 + IDSequence.block])
        // Past the reservation, the next block is reserved before its first id goes out.
        while ids.current < marks.all[0] { _ = ids.next() }
        #expect(marks.all.count == 1)
        let past = ids.next()
        #expect(marks.all.count == 2 && marks.all[1] == past + IDSequence.block)
    }

    final class Marks: @unchecked Sendable {
        var all: [UInt32] = []
        func add(_ mark: UInt32) { all.append(mark) }
    }
}

extension NotificationRequest {
    static func make() -> NotificationRequest { NotificationRequest(appName: "app", summary: "Hello") }
}
