/// Incoming messages waiting to be handled, one lane per sender, taken in turn: a client
/// that floods waits behind itself, and another client's call is handled within one round.
///
/// Every message passes through here, so it is kept cheap: a sender's lane is found by comparing
/// unique names (":1.42", short enough to be compared as two words) along the few lanes there
/// are, where dictionaries keyed by sender cost several string hashes per message.
struct FairQueue {
    private struct Lane {
        let sender: String
        var messages: [Message]
        var head = 0
        /// Of them, how many brought file descriptors.
        var descriptorCalls = 0
    }

    /// Senders with waiting messages, in the order they are served.
    private var lanes: [Lane] = []
    private var cursor = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ message: Message) {
        let sender = message.sender ?? ""
        count += 1
        let descriptors = message.carriesDescriptors ? 1 : 0
        if let index = lanes.firstIndex(where: { $0.sender == sender }) {
            lanes[index].messages.append(message)
            lanes[index].descriptorCalls += descriptors
        } else {
            lanes.append(Lane(sender: sender, messages: [message], descriptorCalls: descriptors))
        }
    }

    func descriptorCalls(from sender: String) -> Int {
        lanes.first { $0.sender == sender }?.descriptorCalls ?? 0
    }

    /// The next message, from the next sender in turn.
    mutating func next() -> Message? {
        guard !lanes.isEmpty else { return nil }
        if cursor >= lanes.count { cursor = 0 }
        let head = lanes[cursor].head
        let message = lanes[cursor].messages[head]
        count -= 1
        if message.carriesDescriptors { lanes[cursor].descriptorCalls -= 1 }
        if head + 1 == lanes[cursor].messages.count {
            lanes.remove(at: cursor)
        } else {
            lanes[cursor].head = head + 1
            // Drop what was taken now and then, so a long flood does not keep it all.
            if head + 1 >= 1_024 {
                lanes[cursor].messages.removeFirst(head + 1)
                lanes[cursor].head = 0
            }
            cursor += 1
        }
        return message
    }
}
