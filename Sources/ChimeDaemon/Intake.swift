import ChimeCore
import ChimeDBus
import ChimeGLib
import CShims

/// org.freedesktop.Notifications, as declared in dbus/org.freedesktop.Notifications.xml: each
/// Notify read once into its one value (`NotifyDecoder`), its sender known as the system says
/// (`SenderIdentities`) while it waits for its reply, and handed to the daemon (`deliver`), as
/// the portal's AddNotification is (`PortalBackend`).
final class Intake {
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

    /// What chimed does with a notification a call brought (`Daemon.deliver`): its id, which the
    /// call is answered with once the center keeps it.
    typealias Deliver = (_ request: NotificationRequest, _ call: MethodCall, _ identity: SenderIdentity?) throws(RequestError) -> UInt32
    /// CloseNotification, as the core allows the caller (`NotificationServer.close`).
    typealias Close = (_ id: UInt32, _ sender: String, _ identity: SenderIdentity?) throws(RequestError) -> Void

    private let spec: InterfaceSpec
    private let decoder: NotifyDecoder
    private let identities: SenderIdentities
    private let deliver: Deliver
    private let close: Close
    /// KDE's Inhibit and UnInhibit, as the control interface has them (`FocusControl.swift`).
    private let inhibit: ExportedInterface.Handler
    private let uninhibit: ExportedInterface.Handler
    /// Whether the screen is shared (the `Inhibited` property).
    private let sharing: () -> Bool
    /// Once the main loop is idle (the turn's messages freed by then), hands freed memory back
    /// to the system: after a large call, so its megabytes do not stay with chimed. Once more a
    /// second later, for what libdbus let go of after that.
    private let releaseMemory = IdleWork {
        chime_release_free_memory()
        GLibSources.timeout(milliseconds: 1_000) {
            chime_release_free_memory()
            return false
        }
    }

    init(spec: InterfaceSpec, decoder: NotifyDecoder, identities: SenderIdentities, deliver: @escaping Deliver, close: @escaping Close,
         inhibit: @escaping ExportedInterface.Handler, uninhibit: @escaping ExportedInterface.Handler, sharing: @escaping () -> Bool) {
        (self.spec, self.decoder, self.identities, self.deliver, self.close) = (spec, decoder, identities, deliver, close)
        (self.inhibit, self.uninhibit, self.sharing) = (inhibit, uninhibit, sharing)
    }

    func interface() -> ExportedInterface {
        ExportedInterface(spec: spec, handlers: [
            "GetCapabilities": { _ in [.stringArray(Self.capabilities)] },
            "GetServerInformation": { _ in
                [.string("Chime"), .string("Chime"), .string(ChimeVersion.string), .string("1.3")]
            },
            "Notify": { [unowned self] call throws(BusError) in
                do throws(RequestError) {
                    let read = try decoder.read(call.message)
                    if read.bytes > Self.largeCallBytes { releaseMemory.schedule() }
                    return [.uint32(try deliver(decoder.finish(read), call, identities.identity(of: call.sender)))]
                } catch {
                    throw BusError(error)
                }
            },
            "CloseNotification": { [unowned self] call throws(BusError) in
                guard case .uint32(let id) = call.arguments.first else { return [] }
                do throws(RequestError) {
                    try close(id, call.sender, identities.identity(of: call.sender))
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
                return try inhibit(call)
            },
            "UnInhibit": uninhibit,
        ],
           properties: ["Inhibited": { [unowned self] in .bool(sharing()) }])
    }
}
