/// Apple's four interruption levels, as named by the `x-chime-interruption-level` hint.
public enum InterruptionLevel: String, Sendable, CaseIterable, Comparable {
    case passive
    case active
    case timeSensitive = "time-sensitive"
    case critical

    private var rank: Int {
        switch self {
        case .passive: 0
        case .active: 1
        case .timeSensitive: 2
        case .critical: 3
        }
    }

    public static func < (lhs: InterruptionLevel, rhs: InterruptionLevel) -> Bool { lhs.rank < rhs.rank }
}
