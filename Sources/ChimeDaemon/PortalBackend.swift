import CGLib
import ChimeCore
import ChimeDBus
import ChimeGLib
import Glibc

/// org.freedesktop.impl.portal.Notification, as declared in
/// dbus/org.freedesktop.impl.portal.Notification.xml: the notification portal's backend
/// (design section 19), so sandboxed apps reach the attention model with all the portal says.
/// Served on the control connection, under a name of its own, for xdg-desktop-portal to call.
/// Keeps the apps' own ids of what came through it (`PortalRegistry`), so actions go back
/// through the portal, and the files its icons and sounds came as (`PortalFiles`).
final class PortalBackend {
    static let name = "org.freedesktop.impl.portal.desktop.chime"
    static let path = "/org/freedesktop/portal/desktop"
    /// The portal version whose keys Chime reads.
    static let version: UInt32 = 2
    let spec = InterfaceSpec.load("org.freedesktop.impl.portal.Notification.xml")[0]

    private var registry = PortalRegistry()
    private lazy var files = PortalFiles(environment: environment)
    private let environment: [String: String]
    private let decoder: NotifyDecoder
    private let identities: SenderIdentities
    private let control: ObjectServer
    /// What chimed does with a notification, as with one a Notify brings.
    private let deliver: Intake.Deliver
    private let closeNotification: Intake.Close
    /// Whether chimed holds notification `id` open.
    private let isOpen: (UInt32) -> Bool

    init(environment: [String: String], decoder: NotifyDecoder, identities: SenderIdentities, control: ObjectServer,
         deliver: @escaping Intake.Deliver, close: @escaping Intake.Close, isOpen: @escaping (UInt32) -> Bool) {
        (self.environment, self.decoder, self.identities, self.control) = (environment, decoder, identities, control)
        (self.deliver, closeNotification, self.isOpen) = (deliver, close, isOpen)
    }

    func interface() -> ExportedInterface {
        ExportedInterface(spec: spec, handlers: [
            "AddNotification": { [unowned self] call throws(BusError) in
                try requirePortal(call.sender)
                guard let appID = call.arguments[0].string, let id = call.arguments[1].string,
                      let pairs = call.arguments[2].vardictPairs else { throw .invalidArgs("AddNotification takes (ssa{sv})") }
                do throws(RequestError) {
                    let portal = try portalNotification(pairs, descriptors: call.message.fileDescriptors())
                    let key = PortalRegistry.Key(appID: appID, id: id)
                    let replacing = registry.id(for: key).flatMap { isOpen($0) ? $0 : nil } ?? 0
                    let request = portal.request(appID: appID, appName: Self.appName(appID), replacing: replacing)
                    let chimeID = try deliver(request, call, Self.identity(appID))
                    registry.record(chimeID, key: key, notification: portal)
                } catch {
                    throw BusError(error)
                }
                return []
            },
            "RemoveNotification": { [unowned self] call throws(BusError) in
                try requirePortal(call.sender)
                guard let appID = call.arguments[0].string, let id = call.arguments[1].string,
                      let chimeID = registry.id(for: .init(appID: appID, id: id)), isOpen(chimeID) else { return [] }
                do throws(RequestError) {
                    try closeNotification(chimeID, call.sender, Self.identity(appID))
                } catch {
                    throw BusError(error)
                }
                return []
            },
        ], properties: [
            "version": { .uint32(Self.version) },
            "SupportedOptions": {
                .vardict([("category", .stringArray(PortalNotification.categories)),
                          ("button-purpose", .stringArray(PortalNotification.purposes))])
            },
        ], takesDescriptors: ["AddNotification"])  // icons and sounds, as sealed memfds
    }

    /// What an event means to the portal's records: a notification deleted from the center is
    /// forgotten; one closed can no longer be replaced by its app's id.
    func follow(_ event: ServerEvent) {
        guard !registry.isEmpty else { return }
        switch event {
        case .deleted(let id): registry.forget(id)
        case .closed(let notification, _): registry.closed(notification.id)
        default: break
        }
    }

    /// The frontend only: the app id it passes is the identity Chime trusts, so no other client
    /// may name an app through the backend (a host program could otherwise pass as a Flatpak app).
    private func requirePortal(_ sender: String) throws(BusError) {
        guard identities.owns(sender, name: Self.portalFrontend) else {
            throw BusError(BusError.accessDenied, "only xdg-desktop-portal (\(Self.portalFrontend)) may call the notification portal's backend")
        }
    }

    /// The portal frontend's name.
    static let portalFrontend = "org.freedesktop.portal.Desktop"

    /// The portal's a{sv} read: the keys the core checks, then the body sanitised or escaped,
    /// and the icon and sound, which may come as descriptors (closed here once read).
    private func portalNotification(_ pairs: [(key: String, value: BusValue)], descriptors: [Int32]) throws(RequestError) -> PortalNotification {
        defer { for descriptor in descriptors { close(descriptor) } }
        let entries = Dictionary(pairs, uniquingKeysWith: { _, last in last })
        var problems: [String] = []
        var portal = try PortalNotification(decoding: entries, problems: &problems)
        for problem in problems { Log.warningOnce(key: "portal " + problem, "portal: \(problem)") }
        portal.title = decoder.bounded(summary: portal.title)
        if let markup = entries["markup-body"]?.string {
            portal.body = decoder.sanitizedBody(markup)
        } else if let plain = entries["body"]?.string {
            portal.body = decoder.sanitizedBody(Self.escaped(plain))
        }
        // Which of the call's descriptors a key's value holds: they come in the a{sv}'s order.
        var order = 0
        var indexOf: [String: Int] = [:]
        for (key, value) in pairs {
            let count = value.descriptorCount
            if count > 0 { indexOf[key] = order }
            order += count
        }
        func bytes(of key: String, limit: Int) throws(RequestError) -> [UInt8] {
            guard let index = indexOf[key], index < descriptors.count else { throw .invalidArgument("\(key): no file descriptor came with it") }
            switch PortalFiles.read(descriptors[index], limit: limit) {
            case .success(let bytes): return bytes
            case .failure(let problem): throw .invalidArgument("\(key): \(problem.description)")
            }
        }
        if let icon = entries["icon"] {
            switch Self.serialized(icon) {
            case ("themed", let names)?:
                portal.iconName = names.strings?.first(where: ImageReference.isIconName)
            case ("bytes", .bytes(let data))?:
                portal.iconFile = try kept(files.image(data), "icon")
            case ("file-descriptor", _)?:
                portal.iconFile = try kept(files.image(bytes(of: "icon", limit: ImageReference.maximumFileBytes)), "icon")
            default:
                if let name = icon.string, ImageReference.isIconName(name) { portal.iconName = name } else {
                    throw .invalidArgument("icon: not a themed name, bytes or a file descriptor")
                }
            }
        }
        if let sound = entries["sound"] {
            switch (sound.string, Self.serialized(sound)) {
            case ("default", _): portal.sound = .default
            case ("silent", _): portal.sound = .silent
            case (_, ("file-descriptor", _)?):
                portal.sound = .file(try kept(files.sound(bytes(of: "sound", limit: SoundFile.maximumBytes)), "sound"))
            default:
                throw .invalidArgument("sound: not default, silent or a file descriptor")
            }
        }
        return portal
    }

    private func kept(_ result: Result<String, HintProblem>, _ key: String) throws(RequestError) -> String {
        switch result {
        case .success(let path): return path
        case .failure(let problem): throw .invalidArgument("\(key): \(problem.description)")
        }
    }

    /// A serialized GIcon or sound, `(sv)`: its kind and value.
    private static func serialized(_ value: BusValue) -> (String, BusValue)? {
        guard case .structure(let fields) = value.unwrapped, fields.count == 2, let kind = fields[0].string else { return nil }
        return (kind, fields[1].unwrapped)
    }

    /// The identity the portal vouches for: its app id (a Flatpak's, or a host app's the portal
    /// registered); none for an app it could not name.
    static func identity(_ appID: String) -> SenderIdentity? {
        appID.isEmpty ? nil : SenderIdentity(.flatpak, appID)
    }

    /// What people read for an app id: its last part ("Podcasts" for org.gnome.Podcasts).
    static func appName(_ appID: String) -> String {
        appID.split(separator: ".").last.map(String.init) ?? "Application"
    }

    static func escaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    /// An action the person chose on a portal notification, said back to the portal: the app's
    /// action name, its target, the activation token (`token`, taken only then) and a reply's
    /// text. True when it was one.
    func say(_ event: ServerEvent, token: (UInt32) -> String) -> Bool {
        let notification: Notification, key: String, reply: String?
        switch event {
        case .actionInvoked(let invoked, let chosen): (notification, key, reply) = (invoked, chosen, nil)
        case .replied(let replied, let text): (notification, key, reply) = (replied, Action.inlineReplyKey, text)
        default: return false
        }
        guard let entry = registry.entry(for: notification.id) else { return false }
        guard let (action, target) = entry.notification.portalAction(for: key) else { return true }
        let token = token(notification.id)
        var parameter: [BusValue] = []
        if let target { parameter.append(.variant(target)) }
        parameter.append(.variant(.vardict(token.isEmpty ? [] : [("activation-token", .string(token))])))
        if let reply { parameter.append(.variant(.string(reply))) }
        control.emit(path: Self.path, interface: spec, signal: "ActionInvoked",
                     [.string(entry.key.appID), .string(entry.key.id), .string(action), .array(elementSignature: "v", parameter)],
                     to: notification.sender)
        return true
    }
}

extension BusValue {
    /// How many file descriptors are inside.
    var descriptorCount: Int {
        switch self {
        case .unixFD: 1
        case .variant(let inner): inner.descriptorCount
        case .structure(let fields): fields.reduce(0) { $0 + $1.descriptorCount }
        case .array(_, let items): items.reduce(0) { $0 + $1.descriptorCount }
        case .dictionary(_, _, let entries): entries.reduce(0) { $0 + $1.key.descriptorCount + $1.value.descriptorCount }
        default: 0
        }
    }
}
