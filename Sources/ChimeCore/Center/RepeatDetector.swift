/// Finds the open notification a new one repeats: same app, summary and body, shown within
/// the repeat window. A dictionary keyed by a digest of the texts, so a flood costs one lookup
/// each; the caller compares the texts with the notification found (`Notification.showsTexts`),
/// which also keeps a repeat out of a notification replaced since with other texts.
public struct RepeatDetector: Sendable {
    /// The texts, hashed once when the key is made: the dictionary and the queue that ages
    /// keys out then hold one integer, not three strings of up to 64 KB.
    public struct Key: Hashable, Sendable {
        let digest: Int

        public init(_ request: NotificationRequest) {
            var hasher = Hasher()
            hasher.combine(request.appIdentity)
            hasher.combine(request.summary)
            hasher.combine(request.body)
            digest = hasher.finalize()
        }
    }

    private var latest: [Key: (id: UInt32, at: Instant)] = [:]
    /// Each key once, oldest first, so keys older than the window are dropped in order.
    private var queue: [(key: Key, at: Instant)] = []
    private var head = 0

    public init() {}

    /// Texts remembered now: bounded by what arrived within the window.
    var remembered: Int { latest.count }

    /// The id last noted under `key` within `window` of `now`: the notification whose texts
    /// `key` may repeat. The caller makes the key once for this and `note`.
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

extension Notification {
    /// Whether this shows the app, summary and body `request` sends: whether it repeats them.
    func showsTexts(of request: NotificationRequest) -> Bool {
        appIdentity == request.appIdentity && self.request.summary == request.summary && self.request.body == request.body
    }
}
