import Synchronization

/// Where notification ids come from: one counter for the whole daemon, so an id the bus thread
/// gives out at once (an early answer) and one the main thread gives out never meet.
/// A class, shared by every copy of the server that holds it.
public final class IDSequence: Sendable {
    private let last: Mutex<UInt32>

    /// `after`: the highest id ever handed out, so ids continue past it.
    public init(after last: UInt32 = 0) { self.last = Mutex(last) }

    /// The next id, skipping 0 at the wrap and any id `taken` says is in use.
    public func next(skipping taken: (UInt32) -> Bool = { _ in false }) -> UInt32 {
        last.withLock { last in
            repeat {
                last = last == UInt32.max ? 1 : last + 1
            } while taken(last)
            return last
        }
    }

    /// The highest id handed out.
    public var current: UInt32 {
        get { last.withLock { $0 } }
        set { last.withLock { $0 = newValue } }
    }
}
