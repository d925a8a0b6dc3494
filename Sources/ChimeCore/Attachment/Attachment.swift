/// A file a notification carries, as Chime keeps it: its own copy in the attachment store, of
/// a type read from its content, within its kind's limit.
public struct Attachment: Equatable, Sendable {
    /// The part of an image or a movie's frame the thumbnail shows: a rectangle in the unit
    /// square (0, 0 the top left; 1, 1 the bottom right).
    public struct Clip: Equatable, Sendable {
        public var x, y, width, height: Double

        /// Nil unless the four numbers make a rectangle of some size inside the unit square.
        public init?(_ numbers: [Double]) {
            guard numbers.count == 4, numbers.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else { return nil }
            (x, y, width, height) = (numbers[0], numbers[1], numbers[2], numbers[3])
            guard width > 0, height > 0, x + width <= 1, y + height <= 1 else { return nil }
        }

        public var numbers: [Double] { [x, y, width, height] }
    }

    /// Chime's copy (in `$XDG_STATE_HOME/chime/attachments`).
    public var path: String
    /// The MIME type its content says.
    public var type: String
    public var kind: AttachmentKind
    public var bytes: Int64
    /// The file name the app's file had, for the person to recognise.
    public var name: String
    public var clip: Clip?
    /// Seconds into a movie the thumbnail is taken at.
    public var time: Double?

    public init(path: String, type: String, kind: AttachmentKind, bytes: Int64, name: String, clip: Clip? = nil, time: Double? = nil) {
        self.path = path
        self.type = type
        self.kind = kind
        self.bytes = bytes
        self.name = name
        self.clip = clip
        self.time = time
    }

    /// One line of text for the center's row: fields apart by U+001E. Every field is Chime's own
    /// or cleaned of control characters (`name`), so none holds the separator.
    public var storedLine: String {
        [path, type, kind.rawValue, String(bytes), name, clip.map { $0.numbers.map { String($0) }.joined(separator: " ") } ?? "",
         time.map { String($0) } ?? ""].joined(separator: Self.fieldSeparator)
    }

    /// Reads `storedLine` back; nil for a line that is not one (a hand-edited store).
    public init?(storedLine line: String) {
        let fields = line.split(separator: Character(Self.fieldSeparator), omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7, let kind = AttachmentKind(rawValue: fields[2]), let bytes = Int64(fields[3]) else { return nil }
        self.init(path: fields[0], type: fields[1], kind: kind, bytes: bytes, name: fields[4],
                  clip: Clip(fields[5].split(separator: " ").compactMap { Double($0) }), time: Double(fields[6]))
    }

    static let fieldSeparator = "\u{1E}"

    /// As the control interface's records carry it (`attachments`, aa{sv}): `path`, `type`,
    /// `kind`, `bytes`, `name`, and `thumbnail-clip` (ad) and `thumbnail-time` (d) when set.
    public var record: BusValue {
        var entries: [(String, BusValue)] = [("path", .string(path)), ("type", .string(type)), ("kind", .string(kind.rawValue)),
                                             ("bytes", .int64(bytes)), ("name", .string(name))]
        if let clip { entries.append(("thumbnail-clip", .array(elementSignature: "d", clip.numbers.map { .double($0) }))) }
        if let time { entries.append(("thumbnail-time", .double(time))) }
        return .vardict(entries)
    }

    public static func records(_ attachments: [Attachment]) -> BusValue {
        .array(elementSignature: "a{sv}", attachments.map(\.record))
    }

    /// Reads `records` back; entries that are not attachments are skipped.
    public static func attachments(fromRecords value: BusValue) -> [Attachment] {
        value.records.compactMap { entry in
            guard let path = entry["path"]?.string, let kind = entry["kind"]?.string.flatMap(AttachmentKind.init(rawValue:)) else {
                return nil
            }
            return Attachment(path: path, type: entry["type"]?.string ?? "", kind: kind, bytes: entry["bytes"]?.integer ?? 0,
                              name: entry["name"]?.string ?? "", clip: entry["thumbnail-clip"].flatMap { Clip($0.doubles) },
                              time: entry["thumbnail-time"]?.double)
        }
    }

    /// A file name fit to show and to store: control characters become '?'.
    public static func displayName(ofPath path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return String(String.UnicodeScalarView(last.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
