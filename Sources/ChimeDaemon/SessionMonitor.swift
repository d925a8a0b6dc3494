import ChimeCore
import ChimeDBus
import ChimeGLib

/// Follows logind's LockedHint and IdleHint for this session on the system bus: the lock
/// hides previews, and while the session is locked or idle no banner expires unseen. IdleHint is
/// set by the desktop (GNOME, KDE) or by `swayidle idlehint SECONDS`. Asynchronous: the first
/// answer and every PropertiesChanged arrive on the main loop, so a slow or missing logind never
/// delays a notification. Without logind the session counts as unlocked and present, said once.
final class SessionMonitor {
    struct State: Equatable {
        var locked = false
        var idle = false
        /// The user cannot see the screen, or is not looking at it.
        var away: Bool { locked || idle }
    }

    private var connection: BusConnection?
    private var state = State()
    private let changed: (State) -> Void

    init(changed: @escaping (State) -> Void) {
        self.changed = changed
        do {
            let connection = try BusConnection(system: true)
            self.connection = connection
            connection.attachToMainLoop { [unowned self] message in handle(message) }
            // logind answers for "auto" (the caller's session, or the user's graphical one for a
            // service outside any session), but announces changes on the session's own path.
            connection.send(.methodCall(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                                        interface: "org.freedesktop.login1.Manager", method: "GetSession",
                                        arguments: [.string("auto")]))
        } catch {
            unavailable(error.message)
        }
    }

    /// Follows the session at `path`: its changes from now on, then what it is now.
    private func follow(_ path: String) {
        guard let connection else { return }
        do {
            try connection.addMatch("type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(path)'")
        } catch {
            unavailable(error.message)
            return
        }
        connection.send(.methodCall(destination: "org.freedesktop.login1", path: path,
                                    interface: "org.freedesktop.DBus.Properties", method: "GetAll",
                                    arguments: [.string("org.freedesktop.login1.Session")]))
    }

    private func handle(_ message: Message) -> Bool {
        switch message.kind {
        case .methodReturn:
            // GetSession's answer is the session's path; GetAll's, its properties.
            if case .objectPath(let path)? = message.arguments.first { follow(path) } else { update(message.arguments.first?.vardictEntries) }
            return true
        case .error:
            unavailable(message.arguments.first?.string ?? message.errorName ?? "error")
            return true
        case .signal where message.member == "PropertiesChanged":
            let arguments = message.arguments
            if arguments.count > 1 { update(arguments[1].vardictEntries) }
            return true
        default:
            return false
        }
    }

    /// Takes what the properties say; one that is missing keeps its value.
    private func update(_ properties: [String: BusValue]?) {
        guard let properties else { return }
        var next = state
        if let locked = properties["LockedHint"]?.bool { next.locked = locked }
        if let idle = properties["IdleHint"]?.bool { next.idle = idle }
        guard next != state else { return }
        state = next
        changed(next)
    }

    private func unavailable(_ reason: String) {
        Log.warningOnce(key: "logind", "no lock or idle state from logind (\(reason)); the session counts as unlocked and present")
    }
}
