import CDBus
import ChimeCore

/// New signals as copies of one made earlier for the same path, interface and name: libdbus
/// checks and lays out a new message's header field by field (8,400 instructions for a signal),
/// a copy costs 1,500, and past the open limit every Notify closes an older notification with a
/// signal. The one made first has no arguments and no destination; each copy gets its own.
/// chimed emits from fixed paths, so this holds one message per kind of signal, a dozen or so.
struct SignalTemplates {
    private struct Key: Hashable {
        let path: String
        let interface: String
        let name: String
    }

    private var made: [Key: Message] = [:]

    mutating func signal(path: String, interface: String, name: String,
                         arguments: [BusValue], destination: String? = nil) -> Message {
        let key = Key(path: path, interface: interface, name: name)
        let template: Message
        if let known = made[key] {
            template = known
        } else {
            template = Message.signal(path: path, interface: interface, name: name, arguments: [])
            made[key] = template
        }
        return Message(owning: dbus_message_copy(template.raw)!).filled(with: arguments, to: destination)
    }
}
