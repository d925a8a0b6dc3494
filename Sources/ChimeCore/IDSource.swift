/// Where new notifications' ids come from. The daemon's is shared with its bus thread, which
/// answers some Notify calls itself (`IDSequence`, in ChimeDaemon, a counter behind a lock);
/// the core holds only this, and counts with `IDCounter` when nobody else gives ids out.
public protocol IDSource: Sendable {
    /// The next id, skipping 0 at the wrap and any id `taken` says is in use.
    mutating func next(skipping taken: (UInt32) -> Bool) -> UInt32
    /// The highest id handed out.
    var current: UInt32 { get set }
}

/// Ids counted up from the highest handed out, within one server (tests, replay).
public struct IDCounter: IDSource {
    public var current: UInt32

    public init(after last: UInt32 = 0) { current = last }

    public mutating func next(skipping taken: (UInt32) -> Bool) -> UInt32 {
        repeat {
            current = current == UInt32.max ? 1 : current + 1
        } while taken(current)
        return current
    }
}

extension IDSource {
    public mutating func next() -> UInt32 { next(skipping: { _ in false }) }
}
