import ChimeCore
import ChimeDBus

/// Who hears what chimed says: the freedesktop interface's signals on the notification
/// connection (to the sender alone where the spec says so), Chime's own on the control
/// connection, which bars, presenters and chimectl listen to.
struct Signals {
    let notifications: ObjectServer
    let control: ObjectServer
    let notificationsSpec = InterfaceSpec.load("org.freedesktop.Notifications.xml")[0]
    let controlSpec = InterfaceSpec.load("dev.chime.Chime1.xml")[0]

    func emitNotifications(_ signal: String, _ arguments: [BusValue], to destination: String? = nil) {
        notifications.emit(path: Daemon.notificationsPath, interface: notificationsSpec, signal: signal, arguments, to: destination)
    }

    func emitControl(_ signal: String, _ arguments: [BusValue]) {
        control.emit(path: Daemon.controlPath, interface: controlSpec, signal: signal, arguments)
    }

    func controlPropertiesChanged(_ changed: [(String, BusValue)]) {
        control.emitPropertiesChanged(path: Daemon.controlPath, interface: controlSpec, changed)
    }

    func notificationsPropertiesChanged(_ changed: [(String, BusValue)]) {
        notifications.emitPropertiesChanged(path: Daemon.notificationsPath, interface: notificationsSpec, changed)
    }
}
