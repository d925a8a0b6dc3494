/// Deadlines of open notifications as a min-heap, so the daemon runs one timer
/// armed to the earliest deadline instead of one timer per notification.
/// Entries are never removed in place: a popped entry counts only if it is still current.
struct ExpiryQueue {
    private struct Entry {
        var deadline: Instant
        var id: UInt32
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var earliest: Instant? { heap.first?.deadline }

    mutating func insert(_ id: UInt32, at deadline: Instant) {
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
    }

    /// Removes and returns every entry due at `now`, earliest first.
    mutating func popDue(at now: Instant) -> [(id: UInt32, deadline: Instant)] {
        var due: [(UInt32, Instant)] = []
        while let first = heap.first, first.deadline <= now {
            due.append((first.id, first.deadline))
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        }
        return due
    }

    /// Drops stale entries once they outnumber the live ones, bounding memory under replace floods.
    mutating func compact(keeping isCurrent: (UInt32, Instant) -> Bool) {
        heap = heap.filter { isCurrent($0.id, $0.deadline) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
