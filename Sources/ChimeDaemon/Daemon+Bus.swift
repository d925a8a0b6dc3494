import ChimeCore
import ChimeDBus
import ChimeGLib

/// What chimed hears on the bus besides calls: clients that leave (their identities forgotten,
/// what they held let go), apps' own badge counts, and its names lost to another chimed or the
/// bus going away.
extension Daemon {
    /// Forgets clients that leave, and stops when the bus goes or another chimed takes over.
    func watchBus() throws(BusError) {
        try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''")
        objects.watchSignals { [unowned self] message in
            if message.interface == "org.freedesktop.DBus", message.member == "NameOwnerChanged" {
                if case .string(let name) = message.arguments.first, name.hasPrefix(":") {
                    identities.forget(name)
                    apply(attention.clientLeft(name, now: now))
                }
            } else {
                exitIfLost(Self.notificationsName, message)
            }
        }
        // Apps' own badges (Telegram, Thunderbird): heard on the connection chimed's own go from.
        try controlConnection.addMatch("type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'")
        control.watchSignals { [unowned self] message in
            if message.interface == "com.canonical.Unity.LauncherEntry" {
                heardLauncherEntry(message)
            } else {
                exitIfLost(Self.controlName, message)
            }
        }
    }

    /// An app's own LauncherEntry Update (not chimed's): its count replaces Chime's for docks, and
    /// zero reads its notifications (`Attention.ownBadgeSent`).
    private func heardLauncherEntry(_ message: Message) {
        guard message.member == "Update", message.sender != controlConnection.uniqueName, message.sender != connection.uniqueName,
              message.arguments.count == 2, let uri = message.arguments[0].string, let app = BadgeBoard.app(fromURI: uri),
              let properties = message.arguments[1].vardictEntries, case .int64(let count)? = properties["count"] else { return }
        let (new, events) = attention.ownBadgeSent(by: app, count: count)
        if new {
            Log.info("\(app) sends its own badge count; docks get its count instead of Chime's")
            badges.appSendsOwnCount(app)
        }
        apply(events)
    }

    /// Stops when a connection's name goes to another chimed (`--replace`) or the bus goes away.
    private func exitIfLost(_ name: String, _ message: Message) {
        switch (message.interface, message.member) {
        case ("org.freedesktop.DBus", "NameLost") where message.arguments.first == .string(name):
            Log.info("another server took \(name); exiting")
            loop.quit()
        case ("org.freedesktop.DBus.Local", "Disconnected"):
            Log.info("the session bus went away; exiting")
            exitCode = 1
            loop.quit()
        default:
            break
        }
    }
}
