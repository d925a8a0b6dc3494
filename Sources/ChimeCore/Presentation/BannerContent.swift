/// What one banner shows, decided by the daemon: hidden previews are already redacted, and
/// the actions are the buttons to draw (the default action is the click, not a button).
public struct BannerContent: Equatable, Sendable {
    public struct Button: Equatable, Sendable {
        public var key: String
        public var label: String
        public var destructive: Bool
    }

    public var id: UInt32
    public var appName: String
    public var summary: String
    /// Sanitised markup (b, i, u, a href, img).
    public var body: String
    /// A themed icon name or a local file path: the app icon, or the sender's avatar.
    public var icon: String?
    public var image: ImageData?
    public var buttons: [Button]
    public var hasDefaultAction: Bool
    /// The inline reply field's placeholder, when the notification offers a reply.
    public var replyPlaceholder: String?
    public var progress: Int32?
    public var level: InterruptionLevel
    /// Show icons instead of labels (`action-icons`): the key is an icon name.
    public var actionIcons: Bool

    /// At most four buttons, as design.md section 10 has it.
    public static let maximumButtons = 4

    public init(_ notification: Notification) {
        let request = notification.request
        let hints = request.hints
        let redacted = notification.decision?.redacted == true
        id = notification.id
        appName = request.appName
        summary = redacted ? request.appName : request.summary
        body = redacted ? HiddenPreview.body(for: request) : request.body
        if notification.repeatCount > 1 { summary += " (\(notification.repeatCount)x)" }
        let communication = InterruptionPolicy.isCommunication(request)
        icon = (communication && !redacted ? hints.imagePath : nil) ?? request.appIcon ?? (redacted ? nil : hints.imagePath)
        image = redacted ? nil : hints.imageData
        buttons = request.actions
            .filter { $0.key != Action.defaultKey && $0.key != Action.inlineReplyKey }
            .prefix(Self.maximumButtons)
            .map { Button(key: $0.key, label: $0.label, destructive: hints.destructiveActions.contains($0.key)) }
        hasDefaultAction = request.actions.contains { $0.key == Action.defaultKey }
        replyPlaceholder = request.actions.contains { $0.key == Action.inlineReplyKey }
            ? (hints.replyPlaceholder ?? "Reply…") : nil
        progress = hints.progress
        level = notification.decision?.level ?? InterruptionPolicy.requestedLevel(request)
        actionIcons = hints.actionIcons
    }
}
