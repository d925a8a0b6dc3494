import CDBus
import ChimeCore
import Testing
@testable import ChimeDBus

/// The order chimed handles waiting messages in: each sender in turn.
@Suite struct FairQueueTests {
    func call(from sender: String, _ index: Int) -> Message {
        let message = Message.methodCall(destination: "org.freedesktop.Notifications", path: "/", interface: "dev.chime.Test",
                                         method: "M\(index)", arguments: [])
        dbus_message_set_sender(message.raw, sender)
        return message
    }

    func order(_ queue: inout FairQueue) -> [String] {
        var taken: [String] = []
        while let message = queue.next() { taken.append("\(message.sender!) \(message.member!)") }
        return taken
    }

    @Test func aFloodingSenderWaitsBehindItselfNotOthers() {
        var queue = FairQueue()
        for index in 0..<4 { queue.append(call(from: ":1.1", index)) }
        queue.append(call(from: ":1.2", 0))
        queue.append(call(from: ":1.1", 4))
        #expect(queue.count == 6)
        #expect(order(&queue) == [":1.1 M0", ":1.2 M0", ":1.1 M1", ":1.1 M2", ":1.1 M3", ":1.1 M4"])
        #expect(queue.isEmpty)
    }

    @Test func sendersTakeTurnsAndOneThatComesBackQueuesAtTheEnd() {
        var queue = FairQueue()
        for index in 0..<3 { queue.append(call(from: ":1.1", index)) }
        queue.append(call(from: ":1.2", 0))
        for index in 0..<2 { queue.append(call(from: ":1.3", index)) }
        var taken: [String] = []
        for _ in 0..<2 { taken.append(queue.next()!.member!) }
        // :1.2's one call is taken; its next one joins the round after :1.3, whose turn is next.
        queue.append(call(from: ":1.2", 1))
        while let message = queue.next() { taken.append("\(message.sender!) \(message.member!)") }
        #expect(taken == ["M0", "M0", ":1.3 M0", ":1.2 M1", ":1.1 M1", ":1.3 M1", ":1.1 M2"])
        #expect(queue.isEmpty && queue.count == 0)
    }

    @Test func longQueuesAreCompactedAsTheyAreServed() {
        var queue = FairQueue()
        for index in 0..<3_000 { queue.append(call(from: ":1.1", index)) }
        let taken = order(&queue)
        #expect(taken.count == 3_000 && taken.last == ":1.1 M2999")
    }
}
