import ChimeCore
import ChimeDBus
import ChimeGLib

/// org.freedesktop.Notifications, as declared in dbus/org.freedesktop.Notifications.xml.
extension Daemon {
    /// Only what works is declared: `persistence` because the center keeps notifications
    /// after their banners go (and across restarts).
    static let capabilities = [
        "actions", "action-icons", "body", "body-hyperlinks", "body-images", "body-markup",
        "icon-static", "inhibitions", "inline-reply", "persistence", "sound", "x-canonical-private-synchronous",
        "x-dunst-stack-tag", "x-kde-urls",
    ]

    /// A call past this size (cut to Chime's limits, it keeps little of itself) leaves megabytes
    /// that malloc keeps unless asked to hand them back.
    static let largeCallBytes = 1 << 20

    /// A notification a call brought (Notify, or the portal's AddNotification): decided, what it
    /// made recorded in the turn's transaction, and the call promised its id, which it is
    /// answered with once the turn's commit keeps it.
    func deliver(_ request: NotificationRequest, for call: MethodCall, system: SenderIdentity?, now: Now) throws(RequestError) -> UInt32 {
        let (id, events) = try attention.notify(request, from: call.sender, system: system, now: now)
        apply(events, wall: now.wall)
        center.promise(call.message, id: id)
        return id
    }

    func notificationsInterface() -> ExportedInterface {
        ExportedInterface(spec: signals.notificationsSpec, handlers: [
            "GetCapabilities": { _ in [.stringArray(Self.capabilities)] },
            "GetServerInformation": { _ in
                [.string("Chime"), .string("Chime"), .string(ChimeVersion.string), .string("1.3")]
            },
            "Notify": { [unowned self] call throws(BusError) in
                do throws(RequestError) {
                    let read = try decoder.read(call.message)
                    if read.bytes > Self.largeCallBytes { releaseMemorySoon() }
                    var request = decoder.finish(read)
                    let now = now  // read once: the notification and its row keep the same time
                    let system = identities.identity(of: call.sender)
                    try center.keepAttachments(of: &request, system: system, wall: now.wall) { app in
                        attention.apps.settings(for: app, config: attention.settings).attachmentBytes
                    }
                    return [.uint32(try deliver(request, for: call, system: system, now: now))]
                } catch {
                    throw BusError(error)
                }
            },
            "CloseNotification": { [unowned self] call throws(BusError) in
                guard case .uint32(let id) = call.arguments.first else { return [] }
                do throws(RequestError) {
                    apply(try attention.server.close(id, caller: call.sender, identity: identities.identity(of: call.sender)))
                } catch {
                    throw BusError(error)
                }
                return []
            },
            // KDE's inhibitions: the screen is shared until UnInhibit or the caller leaves the bus.
            // Not for a sandboxed app: it would hold every other app's notifications.
            "Inhibit": { [unowned self] call throws(BusError) in
                if identities.identity(of: call.sender)?.isSandboxed == true {
                    throw BusError(RequestError.sandboxed("a sandboxed app cannot hold every app's notifications; only the desktop's screencast portal and host programs may"))
                }
                return try inhibiting { _ in FocusMode.sharing }(call)
            },
            "UnInhibit": uninhibiting(),
        ],
           properties: ["Inhibited": { [unowned self] in .bool(attention.focus.sharing) }])
    }
}
