/// Why a client's request was refused. Each case maps to one D-Bus error name at the edge.
public enum RequestError: Error, Equatable, Sendable {
    /// Malformed arguments: org.freedesktop.DBus.Error.InvalidArgs.
    case invalidArgument(String)
    /// No open notification with that id.
    case unknownNotification(UInt32)
    /// The notification belongs to another application.
    case notOwner(UInt32)
    /// The notification has no such action.
    case unknownAction(UInt32, String)
    /// No Focus, app or inhibitor by that name; the message lists what exists.
    case unknownName(String)
    /// A client holds as much as one may (inhibitions): org.freedesktop.DBus.Error.LimitsExceeded.
    case limitReached(String)
    /// A sandboxed app asked for what concerns every app: org.freedesktop.DBus.Error.AccessDenied.
    case sandboxed(String)
    /// The app is over its rate limit and the config says to refuse:
    /// org.freedesktop.Notifications.Error.ExcessNotificationGeneration.
    case excessNotifications(String)

    public var message: String {
        switch self {
        case .invalidArgument(let text), .unknownName(let text), .excessNotifications(let text), .limitReached(let text), .sandboxed(let text): text
        case .unknownNotification(let id): "no open notification with id \(id)"
        case .notOwner(let id): "notification \(id) belongs to another application"
        case .unknownAction(let id, let key):
            key.isEmpty ? "notification \(id) has no default action"
                        : "notification \(id) has no action \"\(key)\""
        }
    }
}
