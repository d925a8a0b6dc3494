/// A file a notification carries, as the app named it: an entry of `x-chime-attachments`
/// (aa{sv}: `uri`, `thumbnail-clip`, `thumbnail-time`) or of KDE's `x-kde-urls` (as).
public struct AttachmentRequest: Equatable, Sendable {
    /// The local file's absolute path (from a `file://` URI or a path).
    public var path: String
    public var clip: Attachment.Clip?
    public var time: Double?
    /// Chime's own hint: a file that cannot be kept refuses the notification, as Apple refuses
    /// the request. KDE's: it is dropped and the notification goes without it.
    public var required: Bool
    /// Why the entry itself cannot be used (not a local file, a clip outside the image).
    public var problem: String?

    public init(path: String, clip: Attachment.Clip? = nil, time: Double? = nil, required: Bool, problem: String? = nil) {
        self.path = path
        self.clip = clip
        self.time = time
        self.required = required
        self.problem = problem
    }

    /// At most this many a notification; the rest are refused (Chime's hint) or dropped (KDE's).
    public static let limit = 8

    /// `x-chime-attachments`, each entry checked for its form (the files are checked later).
    static func decode(chime value: BusValue) -> [AttachmentRequest] {
        let name = HintName.attachments.text
        guard case .array("a{sv}", let items) = value.unwrapped else {
            return [invalid("hint '\(name)' must be an array of dictionaries (aa{sv}), got '\(value.unwrapped.signature)'")]
        }
        guard items.count <= limit else {
            return [invalid("hint '\(name)' has \(items.count) entries, over the limit of \(limit)")]
        }
        return items.enumerated().map { index, item in
            decode(entry: item.vardictEntries ?? [:], label: "\(name) entry \(index + 1)")
        }
    }

    private static func decode(entry: [String: BusValue], label: String) -> AttachmentRequest {
        guard let uri = entry["uri"]?.string else { return invalid("\(label) has no 'uri' string") }
        var request: AttachmentRequest
        switch localPath(uri) {
        case .success(let path): request = AttachmentRequest(path: path, required: true)
        case .failure(let problem): return invalid("\(label): \(problem)")
        }
        if let clip = entry["thumbnail-clip"] {
            let numbers = clip.doubles
            guard numbers.count == 4, let rectangle = Attachment.Clip(numbers) else {
                return invalid("\(label): 'thumbnail-clip' must be four doubles (x, y, width, height) of a rectangle inside 0...1")
            }
            request.clip = rectangle
        }
        if let time = entry["thumbnail-time"] {
            guard let seconds = time.double ?? time.integer.map(Double.init), seconds >= 0, seconds.isFinite else {
                return invalid("\(label): 'thumbnail-time' must be a number of seconds, 0 or more")
            }
            request.time = seconds
        }
        return request
    }

    /// `x-kde-urls`: its local files; anything else (a web address) is noted and skipped.
    static func decode(kdeURLs urls: [String], problems: inout [String]) -> [AttachmentRequest] {
        var requests: [AttachmentRequest] = []
        for url in urls {
            switch localPath(url) {
            case .success(let path) where requests.count < limit: requests.append(AttachmentRequest(path: path, required: false))
            case .success: problems.append("hint 'x-kde-urls': more than \(limit) files; \(url) is not kept")
            case .failure(let problem): problems.append("hint 'x-kde-urls': \(problem); not kept")
            }
        }
        return requests
    }

    private static func invalid(_ problem: String) -> AttachmentRequest {
        AttachmentRequest(path: "", required: true, problem: problem)
    }

    /// The absolute path a `file://` URI (percent-decoded) or a path names; anything else is not a local file.
    static func localPath(_ uri: String) -> Result<String, HintProblem> {
        var path = Substring(uri)
        if uri.hasPrefix("file://") {
            path = path.dropFirst("file://".count)
            if path.hasPrefix("localhost/") { path = path.dropFirst("localhost".count) }
            guard path.hasPrefix("/") else { return .failure(.init("\(uri) names a file on another host")) }
            guard let decoded = percentDecoded(path) else { return .failure(.init("\(uri) is not a well-formed file URI")) }
            path = Substring(decoded)
        } else if !uri.hasPrefix("/") {
            return .failure(.init("\(uri) is not a local file (a file:// URI or an absolute path)"))
        }
        guard !path.utf8.contains(0), !path.split(separator: "/").contains("..") else {
            return .failure(.init("\(uri) contains '..' or a NUL byte"))
        }
        return .success(String(path))
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
