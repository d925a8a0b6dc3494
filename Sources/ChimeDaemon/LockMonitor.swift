import ChimeCore
import ChimeDBus

/// Follows logind's LockedHint for this session on the system bus. Asynchronous: the first
/// answer and every PropertiesChanged arrive on the main loop, so a slow or missing logind
/// never delays a notification. Without logind the session counts as unlocked, said once.
final class LockMonitor {
    static let sessionPath = "/org/freedesktop/login1/session/auto"
    private var connection: BusConnection?
    private let changed: (Bool) -> Void

    init(changed: @escaping (Bool) -> Void) {
        self.changed = changed
        do {
            let connection = try BusConnection(system: true)
            self.connection = connection
            try connection.addMatch("type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(Self.sessionPath)'")
            connection.attachToMainLoop { [unowned self] message in handle(message) }
            connection.send(.methodCall(destination: "org.freedesktop.login1", path: Self.sessionPath,
                                        interface: "org.freedesktop.DBus.Properties", method: "Get",
                                        arguments: [.string("org.freedesktop.login1.Session"), .string("LockedHint")]))
        } catch {
            unavailable(error.message)
        }
    }

    private func handle(_ message: Message) -> Bool {
        switch message.kind {
        case .methodReturn:
            if let locked = message.arguments.first?.bool { changed(locked) }
            return true
        case .error:
            unavailable(message.arguments.first?.string ?? message.errorName ?? "error")
            return true
        case .signal where message.member == "PropertiesChanged":
            let arguments = message.arguments
            if arguments.count > 1, let locked = arguments[1].vardictEntries?["LockedHint"]?.bool { changed(locked) }
            return true
        default:
            return false
        }
    }

    private func unavailable(_ reason: String) {
        Log.warningOnce(key: "logind", "no lock state from logind (\(reason)); the session counts as unlocked")
    }
}
