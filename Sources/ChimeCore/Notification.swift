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
