import ChimeCore

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
    /// Where it came from, as KDE says (`x-kde-origin-name`: "My Phone").
    public var origin: String?
    /// The banner's first line: the app's name, and where it came from as Plasma shows it.
    public var header: String { origin.map { "\(appName) · \($0)" } ?? appName }
    public var summary: String
    /// Sanitised markup (b, i, u, a href, img).
    public var body: String
    /// A themed icon name or a local file path: the sender's avatar, else the image, else the
    /// app icon, in the spec's order (image-data, image-path, app_icon).
    public var icon: String?
    public var image: ImageData?
    /// The app's desktop file, whose icon a banner shows when the notification brings none.
    public var desktopEntry: String?
    public var buttons: [Button]
    /// Every action a menu offers (`[popups] … = menu`, and the "more" button past four): the
    /// default action first, under its label, then the rest; not the inline reply.
    public var menu: [Button]
    public var hasDefaultAction: Bool
    /// The inline reply field's placeholder, when the notification offers a reply.
    public var replyPlaceholder: String?
    /// The reply field's send button (`x-kde-reply-submit-button-text`, else "Send").
    public var replySubmitText = tr("Send")
    /// What Chime offers about the app (`Offer`): its line, and its action at the end of `menu`.
    public var offers: [Offer]
    /// When it came (unix ms), for a banner that stays (critical, or a timeout of never): it says
    /// how long ago ("5 min ago").
    public var staysSince: Int64?
    public var progress: Int32?
    public var level: InterruptionLevel
    /// Show icons instead of labels (`action-icons`): the key is an icon name.
    public var actionIcons: Bool
    /// The files it carries, in Chime's store (none while its preview is hidden).
    public var attachments: [Attachment]

    /// At most four buttons, as chimed(1)'s banners section has it.
    public static let maximumButtons = 4

    /// The actions past the buttons, which the "more" button at the end of their row offers.
    public var moreActions: [Button] {
        menu.filter { action in action.key != Action.defaultKey && !buttons.contains { $0.key == action.key } }
    }

    /// The record's `offers` (aa{sv}: text, and actions as key, label pairs).
    public static func offers(_ value: BusValue?) -> [Offer] {
        (value?.records ?? []).compactMap { record in
            guard let text = record["text"]?.string, let actions = record["actions"]?.strings else { return nil }
            return Offer(text: text, actions: Action.pairs(actions))
        }
    }

    /// The offer whose first action has `key`, if one has: its line goes before that action.
    public func offer(startingWith key: String) -> Offer? { offers.first { $0.actions.first?.key == key } }

    /// Reads a notification as the control interface's `Presented` signal carries it (hidden
    /// previews already redacted), so a presenter needs nothing but the bus.
    public init(id: UInt32, record: [String: BusValue]) {
        self.id = id
        appName = record["display-app-name"]?.string ?? record["app-name"]?.string ?? ""
        origin = record["origin"]?.string
        summary = record["summary"]?.string ?? ""
        if let repeats = record["repeat-count"]?.integer, repeats > 1 { summary += " (\(repeats)x)" }
        if let burst = record["thread-count"]?.integer, burst > 1 { summary += " · \(burst) new" }
        body = record["body"]?.string ?? ""
        icon = record["avatar-path"]?.string ?? record["image-path"]?.string ?? record["app-icon"]?.string
        image = (record["avatar-data"] ?? record["image-data"]).flatMap { try? ImageData.decode($0).get() }
        desktopEntry = record["desktop-entry"]?.string
        let pairs = record["actions"]?.strings ?? []
        let actions = Action.pairs(pairs)
        let destructive = Set(record["destructive-actions"]?.strings ?? [])
        buttons = actions
            .filter { $0.key != Action.defaultKey && $0.key != Action.inlineReplyKey }
            .prefix(Self.maximumButtons)
            .map { Button(key: $0.key, label: $0.label, destructive: destructive.contains($0.key)) }
        offers = Self.offers(record["offers"])
        menu = actions.filter { $0.key != Action.inlineReplyKey }
            .map { Button(key: $0.key, label: $0.label, destructive: destructive.contains($0.key)) }
            + offers.flatMap(\.actions).map { Button(key: $0.key, label: $0.label, destructive: false) }
        hasDefaultAction = actions.contains { $0.key == Action.defaultKey }
        replyPlaceholder = actions.contains { $0.key == Action.inlineReplyKey }
            ? (record["reply-placeholder"]?.string ?? tr("Reply…")) : nil
        if let text = record["reply-submit-text"]?.string, !text.isEmpty { replySubmitText = text }
        if record["stays"]?.bool == true { staysSince = record["created"]?.integer }
        progress = record["progress"]?.integer.map { Int32(clamping: $0) }
        level = record["level"]?.string.flatMap(InterruptionLevel.init(rawValue:)) ?? .active
        actionIcons = record["action-icons"]?.bool ?? false
        attachments = record["attachments"].map(Attachment.attachments(fromRecords:)) ?? []
    }
}
