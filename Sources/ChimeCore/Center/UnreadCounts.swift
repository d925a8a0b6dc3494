/// Which notifications in the center are unread, and how many per app: the badges.
/// Follows the core's events, so every path that reads, dismisses or withdraws a
/// notification lowers the count the same way.
public struct UnreadCounts: Sendable {
    private var appByID: [UInt32: String] = [:]
    public private(set) var byApp: [String: Int] = [:]
    /// Apps whose count changed since `takeChanged()`, in order; an app twice in a row is noted
    /// once. A list, not a set: a stream of notifications from one app costs no hashing here.
    private var changed: [String] = []

    public init() {}

    public var total: Int { appByID.count }
    public func count(_ app: String) -> Int { byApp[app] ?? 0 }
    public func isUnread(_ id: UInt32) -> Bool { appByID[id] != nil }
    public func ids(of app: String) -> [UInt32] { appByID.filter { $0.value == app }.map(\.key).sorted() }
    public var allIDs: [UInt32] { appByID.keys.sorted() }

    public mutating func markUnread(_ id: UInt32, app: String) {
        if let previous = appByID.updateValue(app, forKey: id) {
            guard previous != app else { return }
            lower(previous)
        }
        byApp[app, default: 0] += 1
        noteChanged(app)
    }

    public mutating func markRead(_ id: UInt32) {
        guard let app = appByID.removeValue(forKey: id) else { return }
        lower(app)
    }

    private mutating func lower(_ app: String) {
        let left = (byApp[app] ?? 1) - 1
        byApp[app] = left > 0 ? left : nil
        noteChanged(app)
    }

    private mutating func noteChanged(_ app: String) {
        if changed.last != app { changed.append(app) }
    }

    /// What an event means for the unread set: anything shown or kept in the center is unread,
    /// except an update in place that does not interrupt (it stays as read or unread as it was);
    /// an action, a reply, a dismissal or the app's own CloseNotification reads it. A banner
    /// that timed out stays unread in the center.
    public mutating func observe(_ event: ServerEvent) {
        switch event {
        case .presented(let notification), .updated(let notification, _), .stored(let notification), .withdrawn(let notification):
            if notification.countsAsUnread {
                markUnread(notification.id, app: notification.appIdentity)
            }
        case .closed(let notification, let reason):
            if reason == .dismissed || reason == .closedByCall { markRead(notification.id) }
        case .actionInvoked(let notification, _), .replied(let notification, _):
            markRead(notification.id)
        case .read(let id, _), .deleted(let id):
            markRead(id)
        case .merged(let notification, _):
            markRead(notification.id)
        case .snoozed, .retired, .playSound, .runHook, .ruleTurnedOff, .focusChanged, .overRateLimit, .appStateChanged, .idsReserved:
            break
        }
    }

    /// The apps whose count changed since the last call, in order; an app may appear more than once.
    public mutating func takeChanged() -> [String] {
        var taken: [String] = []
        takeChanged { taken = $0 }
        return taken
    }

    /// Lends `body` the apps whose count changed since the last call, then forgets them, keeping
    /// the list's storage: taking the list itself left an empty one, which the next notification
    /// allocated again, every Notify.
    public mutating func takeChanged(_ body: ([String]) -> Void) {
        guard !changed.isEmpty else { return }
        body(changed)
        changed.removeAll(keepingCapacity: true)
    }
}

extension Notification {
    /// Counts as unread as its decision says (`DeliveryDecision.unread`); one without a
    /// decision, unless Chime's own or transient.
    public var countsAsUnread: Bool {
        decision?.unread ?? (sender != Attention.selfSender && !request.hints.transient)
    }
}
