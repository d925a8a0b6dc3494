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
    static let stackTagNames = ["x-canonical-private-synchronous", "x-dunst-stack-tag",
                                "synchronous", "private-synchronous"]

    /// Decodes `raw`; each hint dropped for its type or value is described in `problems`.
    public init(decoding raw: [String: BusValue], problems: inout [String]) {
        self.init(decoding: raw.map { ($0.key, $0.value) }, problems: &problems)
    }

    /// Decodes hints as Notify sent them; when a name repeats, the last one counts.
    public init(decoding raw: [(key: String, value: BusValue)], problems: inout [String]) {
        var reader = HintReader(raw: raw)
        if let value = reader.integer("urgency") {
            if let urgency = Urgency(rawValue: UInt8(clamping: max(0, value))), value >= 0, value <= 2 {
                self.urgency = urgency
            } else {
                reader.problems.append("hint 'urgency': \(value) is not 0, 1 or 2")
            }
        }
        category = reader.string("category")
        desktopEntry = reader.string("desktop-entry")
        for name in ["image-data", "image_data", "icon_data"] where imageData == nil {
            guard let value = reader.value(name) else { continue }
            switch ImageData.decode(value) {
            case .success(let image): imageData = image
            case .failure(let problem): reader.problems.append("hint '\(name)': \(problem)")
            }
        }
        imagePath = reader.string("image-path") ?? reader.string("image_path")
        soundFile = reader.string("sound-file")
        soundName = reader.string("sound-name")
        suppressSound = reader.bool("suppress-sound") ?? false
        transient = reader.bool("transient") ?? false
        resident = reader.bool("resident") ?? false
        actionIcons = reader.bool("action-icons") ?? false
        if let x = reader.integer("x"), let y = reader.integer("y") {
            position = Position(x: Int32(clamping: x), y: Int32(clamping: y))
        }
        if let value = reader.integer("value") { progress = Int32(clamping: min(100, max(0, value))) }
        senderPID = reader.integer("sender-pid")
        stackTag = Self.stackTagNames.lazy.compactMap { reader.string($0) }.first
        replyPlaceholder = reader.string("x-kde-reply-placeholder-text")
        replySubmitText = reader.string("x-kde-reply-submit-button-text")
        replySubmitIcon = reader.string("x-kde-reply-submit-button-icon-name")
        if let level = reader.string("x-chime-interruption-level") {
            interruptionLevel = InterruptionLevel(rawValue: level)
            if interruptionLevel == nil {
                reader.problems.append("hint 'x-chime-interruption-level': unknown level \"\(level)\"")
            }
        }
        if let relevance = reader.double("x-chime-relevance") {
            if (0...1).contains(relevance) {
                self.relevance = relevance
            } else {
                reader.problems.append("hint 'x-chime-relevance': \(relevance) is outside 0...1")
            }
        }
        marketing = reader.bool("x-chime-marketing") ?? false
        thread = reader.string("x-chime-thread")
        sender = reader.string("x-chime-sender")
        hiddenPreviewBody = reader.string("x-chime-hidden-preview-body")
        destructiveActions = reader.strings("x-chime-destructive-actions") ?? []
        problems += reader.problems
    }
}

/// Reads typed hints and notes the ones present with the wrong type.
private struct HintReader {
    /// Apps send a handful of hints and Chime asks for about thirty names: comparing against a
    /// few keys costs less than hashing thirty names. A long list is indexed once instead.
    private let few: [(key: String, value: BusValue)]
    private let indexed: [String: BusValue]
    /// A bit for each key length present (63 for longer ones): most names Chime asks for are
    /// absent, and most of those are answered by one test, without looking at the keys.
    private let lengths: UInt64
    var problems: [String] = []

    init(raw: [(key: String, value: BusValue)]) {
        if raw.count <= 16 {
            (few, indexed) = (raw, [:])
        } else {
            (few, indexed) = ([], Dictionary(raw, uniquingKeysWith: { _, last in last }))
        }
        lengths = raw.reduce(0) { $0 | Self.bit($1.key) }
    }

    private static func bit(_ name: String) -> UInt64 { 1 << UInt64(min(name.utf8.count, 63)) }

    func value(_ name: String) -> BusValue? {
        guard lengths & Self.bit(name) != 0 else { return nil }
        // Lengths first: most names differ in length, which costs no call into String's compare.
        let length = name.utf8.count
        return indexed.isEmpty ? few.last(where: { $0.key.utf8.count == length && $0.key == name })?.value : indexed[name]
    }

    mutating func typed<T>(_ name: String, _ expected: String, _ read: (BusValue) -> T?) -> T? {
        guard let value = value(name) else { return nil }
        if let typed = read(value) { return typed }
        problems.append("hint '\(name)' must be \(expected), got type '\(value.unwrapped.signature)'")
        return nil
    }

    mutating func string(_ name: String) -> String? { typed(name, "a string (s)", \.string) }
    mutating func bool(_ name: String) -> Bool? { typed(name, "a boolean (b)", \.bool) }
    mutating func double(_ name: String) -> Double? { typed(name, "a double (d)", \.double) }
    mutating func strings(_ name: String) -> [String]? { typed(name, "a string array (as)", \.strings) }
    /// Any integer width: Plasma accepts them all for urgency, and so does Chime.
    mutating func integer(_ name: String) -> Int64? { typed(name, "an integer", \.integer) }
}
