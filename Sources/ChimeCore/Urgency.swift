/// The spec's urgency hint, with its wire numbers.
public enum Urgency: UInt8, Sendable, Comparable, CaseIterable {
    case low = 0
    case normal = 1
    case critical = 2

    public static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.rawValue < rhs.rawValue }

    public var name: String {
        switch self {
        case .low: "low"
        case .normal: "normal"
        case .critical: "critical"
        }
    }
}
