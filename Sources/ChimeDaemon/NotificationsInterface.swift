import ChimeCore
import ChimeDBus

/// org.freedesktop.Notifications, as declared in dbus/org.freedesktop.Notifications.xml.
extension Daemon {
    /// Only what works is declared: `persistence` because the center keeps notifications
    /// after their banners go (and across restarts).
    static let capabilities = [
        "actions", "action-icons", "body", "body-hyperlinks", "body-images", "body-markup",
        "icon-static", "inline-reply", "persistence", "sound", "x-canonical-private-synchronous", "x-dunst-stack-tag",
    ]

    func notificationsInterface() -> ExportedInterface {
        ExportedInterface(spec: notificationsSpec, handlers: [
            "GetCapabilities": { _ in [.stringArray(Self.capabilities)] },
            "GetServerInformation": { _ in
                [.string("Chime"), .string("Chime"), .string(ChimeVersion.string), .string("1.3")]
            },
            "Notify": { [unowned self] call throws(BusError) in
                // From the bus thread, always decoded there (`EarlyNotify`), and perhaps answered.
                let passed = call.carried as? EarlyNotify.Passed
                defer { if let passed { attention.repeatGate.handled(passed.key) } }
                do throws(RequestError) {
                    let request = if let passed { passed.request } else { try decoder.decode(call.message) }
                    let now = now  // read once: the notification and its row keep the same time
                    let (id, events) = try attention.notify(request, from: call.sender, now: now, id: passed?.id)
                    apply(events, wall: now.wall)
                    if let journaled = passed?.journaled { handledInJournal = journaled }
                    return [.uint32(id)]
                } catch {
                    throw BusError(error)
                }
            },
            "CloseNotification": { [unowned self] call throws(BusError) in
                guard case .uint32(let id) = call.arguments.first else { return [] }
                do throws(RequestError) {
                    apply(try attention.server.close(id, caller: call.sender))
                } catch {
                    throw BusError(error)
                }
                return []
            },
        ], early: ["Notify": { [earlyNotify] in earlyNotify.answer($0) }])
    }
}
