import ChimeCore
import ChimeDBus
import ChimeStore
import Glibc

/// dev.chime.Chime1, as declared in dbus/dev.chime.Chime1.xml: what a user does to a
/// popup, done from chimectl, presenters and bars. Focus and app methods live beside it.
extension Daemon {
    func controlInterface() -> ExportedInterface {
        let handlers = notificationHandlers()
            .merging(focusHandlers()) { first, _ in first }
            .merging(appHandlers()) { first, _ in first }
        return ExportedInterface(spec: controlSpec, handlers: handlers, properties: [
            "ActiveFocus": { [unowned self] in .string(attention.currentFocus?.name ?? "") },
            "Muted": { [unowned self] in .bool(attention.muted) },
        ])
    }

    /// Runs a core operation and applies its events; refusals become D-Bus errors.
    func acting(_ operation: @escaping (Daemon, MethodCall) throws(RequestError) -> [ServerEvent]) -> ExportedInterface.Handler {
        { [unowned self] call throws(BusError) in
            do throws(RequestError) {
                apply(try operation(self, call))
            } catch {
                throw BusError(error)
            }
            return []
        }
    }

    private func notificationHandlers() -> [String: ExportedInterface.Handler] {
        [
            "GetStatus": { [unowned self] _ in
                [.vardict([
                    ("version", .string(ChimeVersion.string)),
                    ("pid", .uint32(UInt32(getpid()))),
                    ("open", .uint32(UInt32(attention.server.count))),
                    ("focus", .string(attention.currentFocus?.name ?? "")),
                    ("muted", .bool(attention.muted)),
                    ("config", .string(configLoader.path)),
                ])]
            },
            "List": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", attention.server.notifications.map { NotificationRecord.busValue($0) })]
            },
            "Invoke": acting { daemon, call throws(RequestError) in
                guard case .uint32(let id) = call.arguments[0], case .string(let key) = call.arguments[1] else { return [] }
                return try daemon.attention.invoke(id, key: key, now: daemon.now)
            },
            "Reply": acting { daemon, call throws(RequestError) in
                guard case .uint32(let id) = call.arguments[0], case .string(let text) = call.arguments[1] else { return [] }
                return try daemon.attention.server.reply(id, text: text)
            },
            "Dismiss": acting { daemon, call throws(RequestError) in
                guard case .uint32(let id) = call.arguments[0] else { return [] }
                return try daemon.attention.server.dismiss(id)
            },
            "DismissAll": { [unowned self] _ in
                let events = attention.server.dismissAll()
                apply(events)
                return [.uint32(UInt32(events.count))]
            },
            "History": { [unowned self] call throws(BusError) in
                guard let store else { throw BusError(BusError.failed, "the notification store is not available") }
                let filter = call.arguments[0].vardictEntries ?? [:]
                var query = NotificationStore.Filter()
                query.app = filter["app"]?.string
                query.state = filter["state"]?.string
                if let limit = filter["limit"]?.integer {
                    guard (1...10_000).contains(limit) else { throw BusError.invalidArgs("limit must be 1 to 10000") }
                    query.limit = Int(limit)
                }
                return [.array(elementSignature: "a{sv}", store.history(query).map { .vardict($0) })]
            },
            "SummaryList": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", attention.summaryQueue.map { NotificationRecord.busValue($0) })]
            },
            "SummaryNow": { [unowned self] _ in
                let count = attention.summaryQueue.count
                apply(attention.deliverSummary(now: now))
                return [.uint32(UInt32(count))]
            },
            "SetMuted": { [unowned self] call in
                guard case .bool(let muted) = call.arguments[0] else { return [] }
                attention.muteOverride = muted
                apply([])
                objects.emitPropertiesChanged(path: Self.controlPath, interface: controlSpec, [("Muted", .bool(muted))])
                return []
            },
            "Reload": { [unowned self] _ throws(BusError) in
                if let failure = reload() { throw BusError(BusError.invalidArgs, failure.description) }
                return []
            },
        ]
    }
}
