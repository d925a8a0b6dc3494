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

    public init(appName: String, replacesID: UInt32 = 0, appIcon: String? = nil, summary: String,
                body: String = "", actions: [Action] = [], hints: NotificationHints = .init(),
                expireTimeout: Int32 = -1) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// Who sent it, for settings and ownership: the desktop entry, else the app name.
    public var appIdentity: String {
        if let entry = hints.desktopEntry, !entry.isEmpty { return entry }
        return appName
    }
}
