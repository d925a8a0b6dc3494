/// Why a notification closed, with the numbers NotificationClosed carries (spec 1.3).
public enum CloseReason: UInt32, Sendable, CaseIterable {
    case expired = 1
    case dismissed = 2
    case closedByCall = 3
    case undefined = 4

    public var name: String {
        switch self {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closedByCall: "closed"
        case .undefined: "undefined"
        }
    }
}
