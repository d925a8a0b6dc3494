/// An open notification: a request that the server accepted, with its id and owner.
public struct Notification: Equatable, Sendable {
    public let id: UInt32
    public var request: NotificationRequest
    /// The unique bus name of the client that sent (or last replaced) it: its signals go there only.
    public var sender: String
    public var created: Instant
    public var updated: Instant
    /// When it closes by itself; nil = stays until closed.
    public var expires: Instant?
    public var state: NotificationState = .presented
    /// Why it is shown as it is; nil for notifications the policy did not see (Chime's own).
    public var decision: DeliveryDecision?
    /// How many times the app sent this same notification within the repeat window.
    public var repeatCount = 1

    public init(id: UInt32, request: NotificationRequest, sender: String, created: Instant,
                updated: Instant, expires: Instant?) {
        self.id = id
        self.request = request
        self.sender = sender
        self.created = created
        self.updated = updated
        self.expires = expires
    }

    public var appIdentity: String { request.appIdentity }
    public var urgency: Urgency { request.hints.urgency ?? .normal }

    public func action(_ key: String) -> Action? { request.actions.first { $0.key == key } }
}

/// Where a notification stands, per design.md section 7.
public enum NotificationState: Equatable, Sendable {
    /// Shown as a banner.
    case presented
    /// In the center without a banner: passive, or the app's banners are off.
    case quiet
    case heldByFocus(String)
    case heldForSummary
    /// Delivered inside a scheduled summary.
    case summarized
    /// Taken off the screen by the user until `until` (unix milliseconds), then presented again.
    case snoozed(until: Int64)

    /// Every state an entry in the center can have, as history filters name them; "unread" too.
    public static let centerStates = ["presented", "quiet", "held-by-focus", "held-for-summary", "summarized",
                                      "snoozed", "read", "dismissed", "closed", "unread"]

    public var name: String {
        switch self {
        case .presented: "presented"
        case .quiet: "quiet"
        case .heldByFocus: "held-by-focus"
        case .heldForSummary: "held-for-summary"
        case .summarized: "summarized"
        case .snoozed: "snoozed"
        }
    }

    init(_ decision: DeliveryDecision) {
        switch decision.hold {
        case .focus(let name): self = .heldByFocus(name)
        case .summary: self = .heldForSummary
        case nil: self = decision.banner ? .presented : .quiet
        }
    }
}
