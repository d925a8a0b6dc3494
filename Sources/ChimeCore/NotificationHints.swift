/// Every hint Chime understands, decoded from Notify's `a{sv}` into typed fields.
/// Unknown hints are ignored; a known hint of the wrong type is dropped and reported.
public struct NotificationHints: Equatable, Sendable {
    public var urgency: Urgency?
    public var category: String?
    public var desktopEntry: String?
    /// From `image-data`, `image_data` or `icon_data`, in that order of preference.
    public var imageData: ImageData?
    /// From `image-path` or `image_path`: a `file://` URI, an absolute path or an icon name.
    public var imagePath: String?
    public var soundFile: String?
    public var soundName: String?
    public var suppressSound = false
    public var transient = false
    public var resident = false
    public var actionIcons = false
    public var position: Position?
    /// The `value` hint: progress in percent, 0...100.
    public var progress: Int32?
    public var senderPID: Int64?
    /// From `x-canonical-private-synchronous`, `x-dunst-stack-tag`, `synchronous` or `private-synchronous`.
    public var stackTag: String?
    public var replyPlaceholder: String?
    public var replySubmitText: String?
    public var replySubmitIcon: String?
    public var interruptionLevel: InterruptionLevel?
    /// `x-chime-relevance`, 0...1.
    public var relevance: Double?
    public var marketing = false
    public var thread: String?
    /// `x-chime-sender`: the person a communication notification is from.
    public var sender: String?
    public var hiddenPreviewBody: String?
    public var destructiveActions: [String] = []
    /// `x-chime-interrupt`: an update in place interrupts again (sound, unread) as a new one would.
    public var interrupt = false
    /// Its text is hidden while the session is locked, whatever the app's previews setting
    /// (the portal's `hide-content-on-lock-screen`).
    public var hidesPreviewWhenLocked = false
    /// The files it carries, as the app named them (`x-chime-attachments`, `x-kde-urls`): the
    /// daemon checks and copies them into `attachments`, and empties this.
    public var attachmentRequests: [AttachmentRequest] = []
    /// The files it carries, in Chime's attachment store.
    public var attachments: [Attachment] = []
    /// KDE's `x-kde-origin-name`: the device or account it came from ("My Phone"), shown after
    /// the app's name as Plasma shows it.
    public var originName: String?
    /// KDE's `x-kde-appname` (the notifyrc component): names the app when no desktop entry does.
    public var kdeAppName: String?
    /// KDE's `x-kde-display-appname`: the app name shown (KDE Connect sends the phone app's).
    public var displayAppName: String?
    /// KDE's `x-kde-user-action-feedback`: it confirms something the person just did.
    public var userActionFeedback = false

    public struct Position: Equatable, Sendable {
        public var x: Int32
        public var y: Int32
    }

    public init() {}

    /// Stack tags in the order dunst checks them.
    public static let stackTagNames: [HintName] = [.canonicalSynchronous, .dunstStackTag, .synchronous, .privateSynchronous]
    /// Image data in order of preference: the spec's name, then the names of its earlier versions.
    static let imageDataNames: [HintName] = [.imageData, .imageDataUnderscore, .iconData]

    /// Decodes `raw`; each hint dropped for its type or value is described in `problems`.
    public init(decoding raw: [String: BusValue], problems: inout [String]) {
        self.init(decoding: raw.map { ($0.key, $0.value) }, problems: &problems)
    }

    /// Decodes hints as Notify sent them; when a name repeats, the last one counts.
    public init(decoding raw: [(key: String, value: BusValue)], problems: inout [String]) {
        var named: [HintName: BusValue] = [:]
        for (key, value) in raw { if let name = HintName(key) { named[name] = value } }
        self.init(decoding: named, problems: &problems)
    }

    /// Decodes the value of each name Chime reads; each dropped for its type or value is
    /// described in `problems`.
    public init(decoding source: [HintName: BusValue], problems: inout [String]) {
        guard !source.isEmpty else { return }
        var reader = HintReader(source: source)
        if let value = reader.integer(.urgency) {
            if let urgency = Urgency(rawValue: UInt8(clamping: max(0, value))), value >= 0, value <= 2 {
                self.urgency = urgency
            } else {
                reader.problems.append("hint 'urgency': \(value) is not 0, 1 or 2")
            }
        }
        category = reader.string(.category)
        desktopEntry = reader.string(.desktopEntry)
        for name in Self.imageDataNames where imageData == nil {
            guard let value = reader.value(name) else { continue }
            switch ImageData.decode(value) {
            case .success(let image): imageData = image
            case .failure(let problem): reader.problems.append("hint '\(name.text)': \(problem)")
            }
        }
        imagePath = reader.string(.imagePath) ?? reader.string(.imagePathUnderscore)
        soundFile = reader.string(.soundFile)
        soundName = reader.string(.soundName)
        suppressSound = reader.bool(.suppressSound) ?? false
        transient = reader.bool(.transient) ?? false
        resident = reader.bool(.resident) ?? false
        actionIcons = reader.bool(.actionIcons) ?? false
        if let x = reader.integer(.x), let y = reader.integer(.y) {
            position = Position(x: Int32(clamping: x), y: Int32(clamping: y))
        }
        if let value = reader.integer(.value) { progress = Int32(clamping: min(100, max(0, value))) }
        senderPID = reader.integer(.senderPID)
        for name in Self.stackTagNames where stackTag == nil { stackTag = reader.string(name) }
        replyPlaceholder = reader.string(.replyPlaceholder)
        replySubmitText = reader.string(.replySubmitText)
        replySubmitIcon = reader.string(.replySubmitIcon)
        if let level = reader.string(.interruptionLevel) {
            interruptionLevel = InterruptionLevel(rawValue: level)
            if interruptionLevel == nil {
                reader.problems.append("hint 'x-chime-interruption-level': unknown level \"\(level)\"")
            }
        }
        if let relevance = reader.double(.relevance) {
            if (0...1).contains(relevance) {
                self.relevance = relevance
            } else {
                reader.problems.append("hint 'x-chime-relevance': \(relevance) is outside 0...1")
            }
        }
        marketing = reader.bool(.marketing) ?? false
        thread = reader.string(.thread)
        sender = reader.string(.sender)
        hiddenPreviewBody = reader.string(.hiddenPreviewBody)
        destructiveActions = reader.strings(.destructiveActions) ?? []
        interrupt = reader.bool(.interrupt) ?? false
        if let value = reader.value(.attachments) { attachmentRequests = AttachmentRequest.decode(chime: value) }
        if let urls = reader.strings(.kdeURLs, limit: NotifyLimits.hintStringBytes) {
            attachmentRequests += AttachmentRequest.decode(kdeURLs: urls, problems: &reader.problems)
        }
        originName = reader.string(.kdeOriginName)
        kdeAppName = reader.string(.kdeAppName)
        displayAppName = reader.string(.kdeDisplayAppName)
        userActionFeedback = reader.bool(.kdeUserActionFeedback) ?? false
        problems += reader.problems
    }
}

/// The hints Chime reads, typed on request; a hint present with the wrong type is noted in `problems`.
private struct HintReader {
    let source: [HintName: BusValue]
    var problems: [String] = []

    func value(_ name: HintName) -> BusValue? { source[name] }

    private mutating func typed<T>(_ name: HintName, _ expected: String, _ read: (BusValue) -> T?) -> T? {
        guard let value = value(name) else { return nil }
        if let typed = read(value) { return typed }
        problems.append("hint '\(name.text)' must be \(expected), got type '\(value.unwrapped.signature)'")
        return nil
    }

    /// A string past `NotifyLimits.hintStringBytes` is cut, and said.
    mutating func string(_ name: HintName) -> String? {
        guard let text = typed(name, "a string (s)", { $0.string }) else { return nil }
        guard text.utf8.count > NotifyLimits.hintStringBytes else { return text }
        problems.append("hint '\(name.text)' of \(text.utf8.count) bytes cut to \(NotifyLimits.hintStringBytes)")
        return text.cut(toUTF8: NotifyLimits.hintStringBytes) ?? text
    }
    mutating func bool(_ name: HintName) -> Bool? { typed(name, "a boolean (b)") { $0.bool } }
    mutating func double(_ name: HintName) -> Double? { typed(name, "a double (d)") { $0.double } }
    /// Any integer width: Plasma accepts them all for urgency, and so does Chime.
    mutating func integer(_ name: HintName) -> Int64? { typed(name, "an integer") { $0.integer } }
    /// At most `NotifyLimits.hintStrings`, each at most `limit` bytes (action keys by default).
    mutating func strings(_ name: HintName, limit: Int = NotifyLimits.actionKeyBytes) -> [String]? {
        guard let strings = typed(name, "a string array (as)", { $0.strings }) else { return nil }
        let kept = strings.prefix(NotifyLimits.hintStrings).filter { $0.utf8.count <= limit }
        if kept.count < strings.count {
            problems.append("hint '\(name.text)': kept \(kept.count) of its \(strings.count) strings (at most \(NotifyLimits.hintStrings), each at most \(limit) bytes)")
        }
        return kept
    }
}
