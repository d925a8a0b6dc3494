import ChimeGLib

/// Tells apps of their notifications retired past the open limit (`ServerEvent.retired`): once
/// no more have been retired for a tenth of a second (the flood that pushed them out is over),
/// or at the latest five seconds after the oldest was retired, a batch per idle turn. Each is a
/// NotificationClosed and a store update that no reply waits for; inside a flood they would cost
/// the bus, the flooding app and every other app's calls as much as the notifications themselves.
final class RetiredCloser {
    static let quietMilliseconds: UInt32 = 100
    static let batch = 64
    private var queue = RetiredCloses()
    /// Whether a timer or an idle callback is on its way.
    private var scheduled = false
    private let tell: ([UInt32]) -> Void

    /// `tell` sends NotificationClosed (reason 1) for each id and marks it closed in the center.
    init(tell: @escaping ([UInt32]) -> Void) {
        self.tell = tell
    }

    func add(_ id: UInt32) {
        queue.append(id, now: GLibSources.monotonicMilliseconds())
        if queue.isOverCapacity { tell(queue.takeOverCapacity()) }
    }

    /// Arms the wait for the flood to pause, if anything waits.
    func tellWhenQuiet() {
        guard !queue.isEmpty, !scheduled else { return }
        scheduled = true
        GLibSources.timeout(milliseconds: Self.quietMilliseconds) { [unowned self] in
            if floodGoesOn() { return true }
            GLibSources.idle(priority: GLibSources.lowPriority) { [unowned self] in tellABatch() }
            return false
        }
    }

    /// One idle turn's batch; true while more wait. A flood that came back is waited for again.
    private func tellABatch() -> Bool {
        guard !floodGoesOn() else {
            scheduled = false
            tellWhenQuiet()
            return false
        }
        tell(queue.take(atMost: Self.batch))
        if !queue.isEmpty { return true }
        scheduled = false
        return false
    }

    private func floodGoesOn() -> Bool { queue.shouldWait(now: GLibSources.monotonicMilliseconds()) }

    /// Tells every app now: chimed is stopping.
    func tellAll() {
        tell(queue.take(atMost: queue.count))
    }
}

/// The ids waiting to be told, oldest first, and when to tell them; times are monotonic
/// milliseconds. Four bytes an id; past `capacity` the oldest are told at once, so a flood with
/// no pause cannot grow it without bound either.
struct RetiredCloses {
    static let capacity = 100_000
    static let longestWaitMilliseconds: Int64 = 5_000
    private var ids: [UInt32] = []
    private var head = 0
    /// When the oldest waiting was retired.
    private var waitingSince: Int64 = 0
    /// Whether more were retired since the last look: the flood goes on.
    private var retiredLately = false

    var count: Int { ids.count - head }
    var isEmpty: Bool { head == ids.count }
    var isOverCapacity: Bool { count > Self.capacity }

    mutating func append(_ id: UInt32, now: Int64) {
        if isEmpty { waitingSince = now }
        ids.append(id)
        retiredLately = true
    }

    /// At a look (a tick of the wait, or an idle turn): whether to wait on, because more were
    /// retired since the last look and the oldest has not yet waited `longestWaitMilliseconds`.
    mutating func shouldWait(now: Int64) -> Bool {
        defer { retiredLately = false }
        return retiredLately && now - waitingSince < Self.longestWaitMilliseconds
    }

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
