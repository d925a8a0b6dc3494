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

    public struct Position: Equatable, Sendable {
        public var x: Int32
        public var y: Int32
    }

    public init() {}

    /// Stack tags in the order dunst checks them.
    static let stackTagNames: [HintName] = [.canonicalSynchronous, .dunstStackTag, .synchronous, .privateSynchronous]

    /// Decodes `raw`; each hint dropped for its type or value is described in `problems`.
    public init(decoding raw: [String: BusValue], problems: inout [String]) {
        self.init(decoding: raw.map { ($0.key, $0.value) }, problems: &problems)
    }

    /// Decodes hints as Notify sent them; when a name repeats, the last one counts.
    public init(decoding raw: [(key: String, value: BusValue)], problems: inout [String]) {
        var reader = HintReader(raw: raw)
        if let value = reader.integer(.urgency) {
            if let urgency = Urgency(rawValue: UInt8(clamping: max(0, value))), value >= 0, value <= 2 {
                self.urgency = urgency
            } else {
                reader.problems.append("hint 'urgency': \(value) is not 0, 1 or 2")
            }
        }
        category = reader.string(.category)
        desktopEntry = reader.string(.desktopEntry)
        for name in [HintName.imageData, .imageDataOld, .iconData] where imageData == nil {
            guard let value = reader.value(name) else { continue }
            switch ImageData.decode(value) {
            case .success(let image): imageData = image
            case .failure(let problem): reader.problems.append("hint '\(name.name)': \(problem)")
            }
        }
        imagePath = reader.string(.imagePath) ?? reader.string(.imagePathOld)
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
        stackTag = Self.stackTagNames.lazy.compactMap { reader.string($0) }.first
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
        problems += reader.problems
    }
}

/// Every hint name Chime reads, numbered so that a decoded hint is found by its number.
enum HintName: Int, CaseIterable {
    case urgency, category, desktopEntry, imageData, imageDataOld, iconData, imagePath, imagePathOld
    case soundFile, soundName, suppressSound, transient, resident, actionIcons, x, y, value, senderPID
    case canonicalSynchronous, dunstStackTag, synchronous, privateSynchronous
    case replyPlaceholder, replySubmitText, replySubmitIcon
    case interruptionLevel, relevance, marketing, thread, sender, hiddenPreviewBody, destructiveActions

    var name: String {
        switch self {
        case .urgency: "urgency"
        case .category: "category"
        case .desktopEntry: "desktop-entry"
        case .imageData: "image-data"
        case .imageDataOld: "image_data"
        case .iconData: "icon_data"
        case .imagePath: "image-path"
        case .imagePathOld: "image_path"
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
        }
    }

    /// One hash per hint an app sent; the enum has no faster way from a name to a case.
    static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

/// Reads typed hints and notes the ones present with the wrong type.
private struct HintReader {
    private let raw: [(key: String, value: BusValue)]
    /// For each name Chime reads, where in `raw` its last value is (-1: not sent). The hints an
    /// app sent are looked up once each, and the thirty or so names Chime asks for cost an index.
    private var positions: [Int]
    var problems: [String] = []

    init(raw: [(key: String, value: BusValue)]) {
        self.raw = raw
        positions = Array(repeating: -1, count: HintName.allCases.count)
        for (position, hint) in raw.enumerated() {
            if let name = HintName.byName[hint.key] { positions[name.rawValue] = position }
        }
    }

    func value(_ name: HintName) -> BusValue? {
        let position = positions[name.rawValue]
        return position < 0 ? nil : raw[position].value
    }

    mutating func typed<T>(_ name: HintName, _ expected: String, _ read: (BusValue) -> T?) -> T? {
        guard let value = value(name) else { return nil }
        if let typed = read(value) { return typed }
        problems.append("hint '\(name.name)' must be \(expected), got type '\(value.unwrapped.signature)'")
        return nil
    }

    mutating func string(_ name: HintName) -> String? { typed(name, "a string (s)", \.string) }
    mutating func bool(_ name: HintName) -> Bool? { typed(name, "a boolean (b)", \.bool) }
    mutating func double(_ name: HintName) -> Double? { typed(name, "a double (d)", \.double) }
    mutating func strings(_ name: HintName) -> [String]? { typed(name, "a string array (as)", \.strings) }
    /// Any integer width: Plasma accepts them all for urgency, and so does Chime.
    mutating func integer(_ name: HintName) -> Int64? { typed(name, "an integer", \.integer) }
}
