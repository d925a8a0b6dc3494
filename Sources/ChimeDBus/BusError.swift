import CDBus
import ChimeCore

/// A D-Bus error: a name from the spec or ours, and a message for people.
public struct BusError: Error, Equatable, CustomStringConvertible, Sendable {
    public var name: String
    public var message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    public static let unknownObject = "dev.chime.Error.UnknownNotification"
    public static let unknownName = "dev.chime.Error.UnknownName"
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let excessNotifications = "org.freedesktop.Notifications.Error.ExcessNotificationGeneration"
    /// The app that sent a notification in the center has left the bus, so its actions reach nobody.
    public static let appGone = "dev.chime.Error.AppGone"
    public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    /// What a call asked could not be written to disk (a full disk), so it was not done.
    public static let ioError = "org.freedesktop.DBus.Error.IOError"

    public static func invalidArgs(_ message: String) -> BusError { BusError(invalidArgs, message) }

    /// The one mapping from the core's refusals to D-Bus error names.
    public init(_ error: RequestError) {
        switch error {
        case .invalidArgument, .unknownAction: self.init(Self.invalidArgs, error.message)
        case .unknownNotification: self.init(Self.unknownObject, error.message)
        case .notOwner, .sandboxed: self.init(Self.accessDenied, error.message)
        case .limitReached: self.init(Self.limitsExceeded, error.message)
        case .unknownName: self.init(Self.unknownName, error.message)
        case .excessNotifications: self.init(Self.excessNotifications, error.message)
        }
    }

    /// Takes the error out of a libdbus DBusError and frees it: the one place C errors convert.
    static func take(_ error: inout DBusError) -> BusError? {
        guard dbus_error_is_set(&error) != 0 else { return nil }
        defer { dbus_error_free(&error) }
        return BusError(String(cString: error.name), error.message.map { String(cString: $0) } ?? "")
    }
}
