/// A Notify call after the edge has decoded and validated it: markup sanitised,
/// images checked, actions paired. The core trusts these fields.
public struct NotificationRequest: Equatable, Sendable {
    public var appName: String
    public var replacesID: UInt32
    /// A themed icon name or a checked local file path; nil when absent or invalid.
    public var appIcon: String?
    public var summary: String
    /// Sanitised markup: only b, i, u, a href and img src alt remain as tags.
    public var body: String
    public var actions: [Action]
    public var hints: NotificationHints
    /// Milliseconds; -1 = the server's default, 0 = never.
    public var expireTimeout: Int32
    /// From a sandbox (Flatpak, Snap): its desktop entry is the sandbox's app id, and its app name
    /// is only for display, never matched by a rule or a Focus's allowed apps.
    public var sandboxed = false

    /// Named by the sandbox it came from, whatever it claims (chimed(1), "Who is sending").
    public mutating func name(by sandbox: SenderIdentity) {
        hints.desktopEntry = sandbox.id
        sandboxed = true
    }

    public init(appName: String, replacesID: UInt32 = 0, appIcon: String? = nil, summary: String,
                body: String = "", actions: [Action] = [], hints: NotificationHints = .init(),
                expireTimeout: Int32 = -1) {
        (self.appName, self.replacesID, self.appIcon, self.summary) = (appName, replacesID, appIcon, summary)
        (self.body, self.actions, self.hints, self.expireTimeout) = (body, actions, hints, expireTimeout)
    }

    /// Its thread (chimed(1)'s threads): `x-chime-thread`, else the stack tag, else the app.
    public var thread: String { hints.thread ?? hints.stackTag ?? appIdentity }

    /// Who sent it, for settings and ownership: the desktop entry, else KDE's component name
    /// (`x-kde-appname`), else the app name.
    public var appIdentity: String {
        if let entry = hints.desktopEntry, !entry.isEmpty { return entry }
        if let component = hints.kdeAppName, !component.isEmpty { return component }
        return appName
    }
}
