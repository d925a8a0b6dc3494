import ChimeCore
import ChimeDBus
import Glibc

/// dev.chime.Chime1, as declared in dbus/dev.chime.Chime1.xml: what a user does to a
/// popup, done from chimectl, presenters and bars.
extension Daemon {
    func controlInterface() -> ExportedInterface {
        /// Runs a core operation that takes an id and applies its events.
        func acting(_ operation: @escaping (inout NotificationServer, MethodCall) throws(RequestError) -> [ServerEvent])
            -> ExportedInterface.Handler {
            { [unowned self] call throws(BusError) in
                do throws(RequestError) {
                    apply(try operation(&core, call))
                } catch {
                    throw BusError(error)
                }
                return []
            }
        }
        return ExportedInterface(spec: controlSpec, handlers: [
            "GetStatus": { [unowned self] _ in
                [.vardict([
                    ("version", .string(ChimeVersion.string)),
                    ("pid", .uint32(UInt32(getpid()))),
                    ("open", .uint32(UInt32(core.count))),
                ])]
            },
            "List": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", core.notifications.map(NotificationRecord.busValue))]
            },
            "Invoke": acting { core, call throws(RequestError) in
                guard case .uint32(let id) = call.arguments[0], case .string(let key) = call.arguments[1] else { return [] }
                return try core.invoke(id, key: key)
            },
            "Reply": acting { core, call throws(RequestError) in
                guard case .uint32(let id) = call.arguments[0], case .string(let text) = call.arguments[1] else { return [] }
                return try core.reply(id, text: text)
            },
            "Dismiss": acting { core, call throws(RequestError) in
                guard case .uint32(let id) = call.arguments[0] else { return [] }
                return try core.dismiss(id)
            },
            "DismissAll": { [unowned self] _ in
                let events = core.dismissAll()
                apply(events)
                return [.uint32(UInt32(events.count))]
            },
        ])
    }
}
