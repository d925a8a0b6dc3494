/// Finds the open notification a new one repeats: same app, summary and body, shown within
/// the repeat window. A dictionary keyed by the text, so a flood costs one lookup each.
public struct RepeatDetector: Sendable {
    /// The texts, hashed once when the key is made: the dictionary and the queue that ages
    /// keys out then hash one integer, not a 200-byte body, each time they touch it.
    public struct Key: Hashable, Sendable {
        let app: String
        let summary: String
        let body: String
        let digest: Int

        public init(_ request: NotificationRequest) {
            app = request.appIdentity
            summary = request.summary
            body = request.body
            // Compared in full on a match, and hashed again (seeded) by the dictionary.
            var hash = WordHash()
            hash.combine(app)
            hash.combine(summary)
            hash.combine(body)
            digest = Int(truncatingIfNeeded: hash.value)
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(digest) }

        public static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.app == b.app && a.summary == b.summary && a.body == b.body
        }
    }

    private var latest: [Key: (id: UInt32, at: Instant)] = [:]
    /// Each key once, oldest first, so keys older than the window are dropped in order.
    private var queue: [(key: Key, at: Instant)] = []
    private var head = 0

    public init() {}

    /// Texts remembered now: bounded by what arrived within the window.
    var remembered: Int { latest.count }

    /// The id whose texts `key` repeats, if one was noted within `window` of `now`. The caller
    /// makes the key once for this and `note`.
    public func earlier(_ key: Key, now: Instant, window: Duration) -> UInt32? {
        guard let entry = latest[key], entry.at + window >= now else { return nil }
        return entry.id
    }

    /// Notes that `id` now shows the texts of `key`. At most `capacity` keys are kept, the
    /// latest: a repeat merges only into a notification still open, and no more than the server's
    /// maximum are open, so a flood of different texts within the window holds no more memory.
    public mutating func note(_ key: Key, id: UInt32, now: Instant, window: Duration, capacity: Int) {
        if latest.updateValue((id, now), forKey: key) == nil { queue.append((key, now)) }
        forget(before: now, window: window, capacity: capacity)
    }

    /// Drops keys last seen before the window, and the oldest past `capacity`; a key seen again
    /// since it was queued goes to the back instead.
    private mutating func forget(before now: Instant, window: Duration, capacity: Int) {
        while head < queue.count, queue[head].at + window < now || latest.count > capacity {
            let (key, queued) = queue[head]
            head += 1
            // Taken out, and put back in the rare case it stays: one lookup, not two.
            guard let entry = latest.removeValue(forKey: key) else { continue }
            if entry.at + window >= now, entry.at != queued {
                latest[key] = entry
                queue.append((key, entry.at))
            }
        }
        if head > 1_024, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }
}
