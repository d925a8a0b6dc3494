import CGLib
import CShims
import Glibc
import Synchronization

/// A message the bus thread passed to the main thread, with what its early part read of it.
public struct Arrival: @unchecked Sendable {
    // @unchecked: the message is not touched by the bus thread once handed over.
    public let message: Message
    /// What the call's early part read (see `EarlyReading`), for its main handler.
    public let carried: (any Sendable)?
}

/// Messages on their way from the bus thread to the main loop: a short locked array, and an
/// eventfd the main loop polls. Bounded: when it is full the bus thread stops handing over,
/// so a flood waits in the bus thread's fair queue and then in the socket, not in memory here.
final class Inbox: Sendable {
    static let capacity = 256
    private let arrivals = Mutex<[Arrival]>([])
    /// Readable while arrivals wait.
    let descriptor = chime_eventfd()

    deinit { close(descriptor) }

    var hasRoom: Bool { arrivals.withLock { $0.count < Self.capacity } }

    /// Adds an arrival; the main loop is woken only when the inbox was empty.
    func push(_ arrival: Arrival) {
        let first = arrivals.withLock { arrivals in
            arrivals.append(arrival)
            return arrivals.count == 1
        }
        if first { signal() }
    }

    /// Takes up to `limit` arrivals, oldest first; says whether more wait, and whether the inbox
    /// had been full (the bus thread then waits to be woken).
    func take(upTo limit: Int) -> (arrivals: [Arrival], more: Bool, wasFull: Bool) {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
        return arrivals.withLock { arrivals in
            let wasFull = arrivals.count >= Self.capacity
            let taken = Array(arrivals.prefix(limit))
            arrivals.removeFirst(taken.count)
            if !arrivals.isEmpty { signal() }
            return (taken, !arrivals.isEmpty, wasFull)
        }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }
}
