/// The ids of notifications retired past the open limit whose apps have not yet heard
/// NotificationClosed: chimed tells them when idle, oldest first (`Daemon.closeRetiredWhenIdle`).
/// Four bytes an id; past `capacity` the oldest are told at once, so a flood with no idle
/// moment cannot grow it without bound either.
struct RetiredCloses {
    static let capacity = 100_000
    private var ids: [UInt32] = []
    private var head = 0

    var count: Int { ids.count - head }
    var isEmpty: Bool { head == ids.count }
    var isOverCapacity: Bool { count > Self.capacity }

    mutating func append(_ id: UInt32) { ids.append(id) }

    /// Takes the oldest `limit` ids out.
    mutating func take(atMost limit: Int) -> [UInt32] {
        let end = head + min(limit, count)
        let taken = Array(ids[head..<end])
        head = end
        if head == ids.count {
            ids.removeAll(keepingCapacity: ids.count <= 4_096)
            head = 0
        } else if head > 4_096, head * 2 > ids.count {
            ids.removeFirst(head)
            head = 0
        }
        return taken
    }

    /// Takes out what is past `capacity`.
    mutating func takeOverCapacity() -> [UInt32] {
        take(atMost: count - Self.capacity)
    }
}
