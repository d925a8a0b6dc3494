/// Where new notifications' ids come from: counted up from the highest handed out, skipping 0
/// at the wrap. Where ids must never be given twice across restarts (chimed), the counter
/// reserves them a block at a time: `next` says when a new block is reserved, and the server
/// says so (`ServerEvent.idsReserved`), which the daemon keeps before it answers.
public struct IDCounter: Sendable {
    /// The highest id handed out.
    public var current: UInt32
    /// The highest id the last reservation covers; nil where nothing is reserved (tests, replay).
    public private(set) var reserved: UInt32?
    /// Ids reserved at once: one write of the mark for this many notifications.
    public static let block: UInt32 = 1_000

    public init(after last: UInt32 = 0, reserving: Bool = false) {
        current = last
        reserved = reserving ? last : nil
    }

    /// The next id, skipping 0 at the wrap and any id `taken` says is in use, and the mark of the
    /// block reserved for it, when it needed one.
    public mutating func next(skipping taken: (UInt32) -> Bool = { _ in false }) -> (id: UInt32, reserved: UInt32?) {
        var wrapped = false
        repeat {
            if current == UInt32.max { (current, wrapped) = (1, true) } else { current += 1 }
        } while taken(current)
        guard let reserved, current > reserved || wrapped else { return (current, nil) }
        let mark = current &+ Self.block < current ? UInt32.max : current + Self.block
        self.reserved = mark
        return (current, mark)
    }
}
