/// Which of Chime's notifications came through the portal: an app's own id for each (the portal
/// lets an app name its notifications) and what it sent, so the same id again replaces it and an
/// action goes back to the portal under the app's id and action name.
public struct PortalRegistry: Sendable {
    public struct Key: Hashable, Sendable {
        public var appID: String
        public var id: String
        public init(appID: String, id: String) { (self.appID, self.id) = (appID, id) }
    }

    private var ids: [Key: UInt32] = [:]
    private var entries: [UInt32: (key: Key, notification: PortalNotification)] = [:]

    public init() {}

    public func id(for key: Key) -> UInt32? { ids[key] }

    public func entry(for id: UInt32) -> (key: Key, notification: PortalNotification)? { entries[id] }

    public mutating func record(_ id: UInt32, key: Key, notification: PortalNotification) {
        if let previous = ids[key], previous != id { entries[previous] = nil }
        ids[key] = id
        entries[id] = (key, notification)
    }

    /// A notification closed: its app's id may name a new one.
    public mutating func forget(_ id: UInt32) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if ids[entry.key] == id { ids[entry.key] = nil }
    }
}
