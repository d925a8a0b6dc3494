/// Which of Chime's notifications came through the portal: an app's own id for each (the portal
/// lets an app name its notifications) and what it sent, so the same id again replaces it and an
/// action goes back to the portal under the app's id and action name, from the center too after
/// the notification closed.
public struct PortalRegistry: Sendable {
    public struct Key: Hashable, Sendable {
        public var appID: String
        public var id: String
        public init(appID: String, id: String) { (self.appID, self.id) = (appID, id) }
    }

    /// The open ones, by the app's id.
    private var ids: [Key: UInt32] = [:]
    /// Open and closed alike, until deleted from the center or past `kept`.
    private var entries: [UInt32: (key: Key, notification: PortalNotification)] = [:]
    /// Entries kept for closed notifications' actions: the newest, as the center keeps its newest.
    static let kept = 1_000

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    public func id(for key: Key) -> UInt32? { ids[key] }

    public func entry(for id: UInt32) -> (key: Key, notification: PortalNotification)? { entries[id] }

    public mutating func record(_ id: UInt32, key: Key, notification: PortalNotification) {
        ids[key] = id
        entries[id] = (key, notification)
        if entries.count > Self.kept, let oldest = entries.keys.min() { forget(oldest) }
    }

    /// Closed: its app's id may name a new notification; its actions still reach the portal.
    public mutating func closed(_ id: UInt32) {
        guard let key = entries[id]?.key, ids[key] == id else { return }
        ids[key] = nil
    }

    /// Gone from the center.
    public mutating func forget(_ id: UInt32) {
        closed(id)
        entries[id] = nil
    }
}
