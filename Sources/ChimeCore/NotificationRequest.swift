/// A Notify call after the edge has decoded and validated it: markup sanitised,
/// images checked, actions paired. The core trusts these fields.
///
/// A value, but its fields live in one shared box that a change replaces: a request travels by
/// value through the core (the open set, each event, the attention model), and copying its dozens
/// of fields, the hints above all, at each of those steps cost about 4,000 instructions a Notify.
/// Changes are rare after decoding (an action added, an image's pixels dropped).
public struct NotificationRequest: Equatable, Sendable {
    private struct Fields: Equatable, Sendable {
        var appName: String
        var replacesID: UInt32
        var appIcon: String?
        var summary: String
        var body: String
        var actions: [Action]
        var hints: NotificationHints
        var expireTimeout: Int32
        var sandboxed = false
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    public var appName: String { get { box.fields.appName } set { change { $0.appName = newValue } } }
    public var replacesID: UInt32 { get { box.fields.replacesID } set { change { $0.replacesID = newValue } } }
    /// A themed icon name or a checked local file path; nil when absent or invalid.
    public var appIcon: String? { get { box.fields.appIcon } set { change { $0.appIcon = newValue } } }
    public var summary: String { get { box.fields.summary } set { change { $0.summary = newValue } } }
    /// Sanitised markup: only b, i, u, a href and img src alt remain as tags.
    public var body: String { get { box.fields.body } set { change { $0.body = newValue } } }
    public var actions: [Action] { get { box.fields.actions } set { change { $0.actions = newValue } } }
    /// Lent rather than returned: reading one hint (`request.hints.transient`) copied all of them.
    public var hints: NotificationHints {
        _read { yield box.fields.hints }
        set { change { $0.hints = newValue } }
    }
    /// Milliseconds; -1 = the server's default, 0 = never.
    public var expireTimeout: Int32 { get { box.fields.expireTimeout } set { change { $0.expireTimeout = newValue } } }
    /// From a sandbox (Flatpak, Snap): its desktop entry is the sandbox's app id, and its app name
    /// is only for display, never matched by a rule or a Focus's allowed apps.
    public var sandboxed: Bool { get { box.fields.sandboxed } set { change { $0.sandboxed = newValue } } }

    /// Named by the sandbox it came from, whatever it claims (chimed(1), "Who is sending").
    public mutating func name(by sandbox: SenderIdentity) {
        change {
            $0.hints.desktopEntry = sandbox.id
            $0.sandboxed = true
        }
    }

    public init(appName: String, replacesID: UInt32 = 0, appIcon: String? = nil, summary: String,
                body: String = "", actions: [Action] = [], hints: NotificationHints = .init(),
                expireTimeout: Int32 = -1) {
        box = Box(Fields(appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary,
                         body: body, actions: actions, hints: hints, expireTimeout: expireTimeout))
    }

    private mutating func change(_ edit: (inout Fields) -> Void) {
        var fields = box.fields
        edit(&fields)
        box = Box(fields)
    }

    public static func == (a: Self, b: Self) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    /// Its thread (chimed(1)'s threads): `x-chime-thread`, else the stack tag, else the app.
    public var thread: String { box.fields.hints.thread ?? box.fields.hints.stackTag ?? appIdentity }

    /// Who sent it, for settings and ownership: the desktop entry, else KDE's component name
    /// (`x-kde-appname`), else the app name.
    public var appIdentity: String {
        if let entry = box.fields.hints.desktopEntry, !entry.isEmpty { return entry }
        if let component = box.fields.hints.kdeAppName, !component.isEmpty { return component }
        return box.fields.appName
    }
}
