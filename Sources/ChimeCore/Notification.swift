/// An open notification: a request that the server accepted, with its id and owner.
public struct Notification: Equatable, Sendable {
    public let id: UInt32
    public var request: NotificationRequest
    /// The unique bus name of the client that sent (or last replaced) it: its signals go there only.
    public var sender: String
    /// Who the sender is, as the system says; another connection of the same identity may close
    /// or replace it. Nil when not known (Chime's own, or one put back after a restart).
    public var senderIdentity: SenderIdentity?
    public let created: Instant
    /// Unix milliseconds when it came (kept when it is replaced, as the center keeps `created`);
    /// 0 when not known. `created` is for the clock that expires it, which stops while the
    /// machine sleeps.
    public let arrived: Int64
    public var updated: Instant
    /// When it closes by itself; nil = stays until closed.
    public var expires: Instant?
    public var state: NotificationState = .presented
    /// Why it is shown as it is; nil for notifications the policy did not see (Chime's own).
    public var decision: DeliveryDecision?
    /// How many times the app sent this same notification within the repeat window.
    public var repeatCount = 1
    /// How many of its thread's notifications its banner stands for: it took the banner over from
    /// the one before within the thread's cooldown ("3 new").
    public var threadCount = 1

    public init(id: UInt32, request: NotificationRequest, sender: String, created: Instant, arrived: Int64 = 0,
                updated: Instant, expires: Instant?) {
        (self.id, self.request, self.sender, self.created, self.arrived) = (id, request, sender, created, arrived)
        (self.updated, self.expires) = (updated, expires)
    }

    public var appIdentity: String { request.appIdentity }
    public var urgency: Urgency { request.hints.urgency ?? .normal }

    public func action(_ key: String) -> Action? { request.actions.first { $0.key == key } }
}

/// Where a notification stands, per chimed(1)'s notification center.
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

    /// Ends for its app at its timeout, shown or not; what a Focus or the summary holds, and a
    /// snooze, wait until they let it go.
    public var endsAtTimeout: Bool {
        switch self {
        case .presented, .quiet, .summarized: true
        case .heldByFocus, .heldForSummary, .snoozed: false
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
