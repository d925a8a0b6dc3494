/// A notification as the center keeps it: as it was sent (to be shown or presented again), and
/// what the center adds: its state there, read or not, when it came and last changed, its
/// thread, and how it closed.
public struct CenterEntry: Sendable {
    public var notification: Notification
    /// One of `NotificationState.centerStates`.
    public var state: String
    /// Unix milliseconds.
    public var created: Int64
    public var updated: Int64
    public var thread: String
    public var unread: Bool
    public var closeReason: UInt32?
    /// Why the decision came out as it did (`DeliveryDecision.reasons`).
    public var reasons: [Reason]

    public init(notification: Notification, state: String, created: Int64, updated: Int64, thread: String, unread: Bool,
                closeReason: UInt32?, reasons: [Reason] = []) {
        self.notification = notification
        self.state = state
        self.created = created
        self.updated = updated
        self.thread = thread
        self.unread = unread
        self.closeReason = closeReason
        self.reasons = reasons
    }

    public var id: UInt32 { notification.id }

    /// The center's own fields, as the control interface's records carry them.
    public var fields: [(String, BusValue)] {
        var fields: [(String, BusValue)] = [("state", .string(state)), ("created", .int64(created)), ("updated", .int64(updated)),
                                            ("thread", .string(thread)), ("unread", .bool(unread))]
        if let closeReason { fields.append(("close-reason", .uint32(closeReason))) }
        fields += Reason.fields(reasons)
        return fields
    }
}
