/// Every hint Chime reads, by its name on the wire. An app's hints are matched against these once,
/// as they are read off the wire; the rest are not read.
public enum HintName: Int, CaseIterable, Sendable {
    case urgency, category, desktopEntry
    case imageData, imageDataUnderscore, iconData, imagePath, imagePathUnderscore
    case soundFile, soundName, suppressSound, transient, resident, actionIcons
    case x, y, value, senderPID
    case canonicalSynchronous, dunstStackTag, synchronous, privateSynchronous
    case replyPlaceholder, replySubmitText, replySubmitIcon
    case interruptionLevel, relevance, marketing, thread, sender, hiddenPreviewBody, destructiveActions, interrupt
    case kdeURLs, attachments
    case kdeOriginName, kdeAppName, kdeDisplayAppName, kdeUserActionFeedback

    public var text: String {
        switch self {
        case .urgency: "urgency"
        case .category: "category"
        case .desktopEntry: "desktop-entry"
        case .imageData: "image-data"
        case .imageDataUnderscore: "image_data"
        case .iconData: "icon_data"
        case .imagePath: "image-path"
        case .imagePathUnderscore: "image_path"
        case .soundFile: "sound-file"
        case .soundName: "sound-name"
        case .suppressSound: "suppress-sound"
        case .transient: "transient"
        case .resident: "resident"
        case .actionIcons: "action-icons"
        case .x: "x"
        case .y: "y"
        case .value: "value"
        case .senderPID: "sender-pid"
        case .canonicalSynchronous: "x-canonical-private-synchronous"
        case .dunstStackTag: "x-dunst-stack-tag"
        case .synchronous: "synchronous"
        case .privateSynchronous: "private-synchronous"
        case .replyPlaceholder: "x-kde-reply-placeholder-text"
        case .replySubmitText: "x-kde-reply-submit-button-text"
        case .replySubmitIcon: "x-kde-reply-submit-button-icon-name"
        case .interruptionLevel: "x-chime-interruption-level"
        case .relevance: "x-chime-relevance"
        case .marketing: "x-chime-marketing"
        case .thread: "x-chime-thread"
        case .sender: "x-chime-sender"
        case .hiddenPreviewBody: "x-chime-hidden-preview-body"
        case .destructiveActions: "x-chime-destructive-actions"
        case .interrupt: "x-chime-interrupt"
        case .kdeURLs: "x-kde-urls"
        case .attachments: "x-chime-attachments"
        case .kdeOriginName: "x-kde-origin-name"
        case .kdeAppName: "x-kde-appname"
        case .kdeDisplayAppName: "x-kde-display-appname"
        case .kdeUserActionFeedback: "x-kde-user-action-feedback"
        }
    }

    /// The name `key` is, if Chime reads it.
    init?(_ key: String) {
        guard let name = Self.byText[key] else { return nil }
        self = name
    }

    /// The name whose text these bytes are, if Chime reads it.
    public init?(utf8 key: UnsafeRawBufferPointer) {
        self.init(String(decoding: key, as: UTF8.self))
    }

    private static let byText = Dictionary(uniqueKeysWithValues: allCases.map { ($0.text, $0) })
}
