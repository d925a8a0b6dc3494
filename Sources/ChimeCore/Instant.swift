/// A point on the daemon's monotonic clock, in milliseconds. The core never reads a clock:
/// callers pass `now`, so tests move time by hand.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.milliseconds < rhs.milliseconds }

    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }

    public var description: String { "\(milliseconds)ms" }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
