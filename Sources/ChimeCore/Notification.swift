/// An open notification: a request that the server accepted, with its id and owner.
///
/// A value whose fields live in a box shared by its copies, copied when one of them changes:
/// a notification travels through the open set, its event and each of the event's readers (the
/// store, the unread counts), and copying its fields field by field at each step cost about
/// 1,000 instructions a Notify.
public struct Notification: Equatable, Sendable {
    private struct Fields: Equatable, Sendable {
        let id: UInt32
        var request: NotificationRequest
        var sender: String
        var senderIdentity: SenderIdentity?
        let created: Instant
        /// Unix milliseconds when it came, what people read (`created` is for the clock that
        /// expires it, which stops while the machine sleeps); 0 when not known.
        let arrived: Int64
        var updated: Instant
        var expires: Instant?
        var state: NotificationState = .presented
        var decision: DeliveryDecision?
        var repeatCount = 1
        var threadCount = 1
    }

    /// Changed only while this value holds the one reference to it (`edit`): what copies share
    /// is never changed, which is what makes it Sendable.
    private final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    public var id: UInt32 { box.fields.id }
    public var request: NotificationRequest { get { box.fields.request } set { edit { $0.request = newValue } } }
    /// The unique bus name of the client that sent (or last replaced) it: its signals go there only.
    public var sender: String { get { box.fields.sender } set { edit { $0.sender = newValue } } }
    /// Who the sender is, as the system says; another connection of the same identity may close
    /// or replace it. Nil when not known (Chime's own, or one put back after a restart).
    public var senderIdentity: SenderIdentity? {
        get { box.fields.senderIdentity }
        set { edit { $0.senderIdentity = newValue } }
    }
    public var created: Instant { box.fields.created }
    /// Unix milliseconds when it came (kept when it is replaced, as the center keeps `created`);
    /// 0 when not known.
    public var arrived: Int64 { box.fields.arrived }
    public var updated: Instant { get { box.fields.updated } set { edit { $0.updated = newValue } } }
    /// When it closes by itself; nil = stays until closed.
    public var expires: Instant? { get { box.fields.expires } set { edit { $0.expires = newValue } } }
    public var state: NotificationState { get { box.fields.state } set { edit { $0.state = newValue } } }
    /// Why it is shown as it is; nil for notifications the policy did not see (Chime's own).
    public var decision: DeliveryDecision? { get { box.fields.decision } set { edit { $0.decision = newValue } } }
    /// How many times the app sent this same notification within the repeat window.
    public var repeatCount: Int { get { box.fields.repeatCount } set { edit { $0.repeatCount = newValue } } }
    /// How many of its thread's notifications its banner stands for: it took the banner over from
    /// the one before within the thread's cooldown ("3 new").
    public var threadCount: Int { get { box.fields.threadCount } set { edit { $0.threadCount = newValue } } }

    public init(id: UInt32, request: NotificationRequest, sender: String, created: Instant, arrived: Int64 = 0,
                updated: Instant, expires: Instant?) {
        box = Box(Fields(id: id, request: request, sender: sender, created: created, arrived: arrived, updated: updated,
                         expires: expires))
    }

    private mutating func edit(_ change: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
        change(&box.fields)
    }

    public static func == (a: Self, b: Self) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    public var appIdentity: String { box.fields.request.appIdentity }
    public var urgency: Urgency { box.fields.request.hints.urgency ?? .normal }

    public func action(_ key: String) -> Action? { box.fields.request.actions.first { $0.key == key } }
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
