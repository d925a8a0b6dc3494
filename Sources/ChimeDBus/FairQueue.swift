/// Incoming messages waiting to be handled, one queue per sender, taken in turn: a client
/// that floods waits behind itself, and another client's call is handled within one round.
struct FairQueue {
    private var queues: [String: [Message]] = [:]
    private var heads: [String: Int] = [:]
    /// Senders with waiting messages, in the order they are served.
    private var turn: [String] = []
    private var cursor = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ message: Message) {
        let sender = message.sender ?? ""
        if queues[sender] == nil {
            queues[sender] = []
            heads[sender] = 0
            turn.append(sender)
        }
        queues[sender]!.append(message)
        count += 1
    }

    /// The next message, from the next sender in turn.
    mutating func next() -> Message? {
        guard !turn.isEmpty else { return nil }
        if cursor >= turn.count { cursor = 0 }
        let sender = turn[cursor]
        let head = heads[sender]!
        let message = queues[sender]![head]
        count -= 1
        if head + 1 == queues[sender]!.count {
            queues[sender] = nil
            heads[sender] = nil
            turn.remove(at: cursor)
        } else {
            heads[sender] = head + 1
            // Drop what was taken now and then, so a long flood does not keep it all.
            if head + 1 >= 1_024 {
                queues[sender]!.removeFirst(head + 1)
                heads[sender] = 0
            }
            cursor += 1
        }
        return message
    }
}
