/// The three kinds of file a notification may carry (Apple's UNNotificationAttachment), each
/// with its types and its size limit (chime-hints(7)'s attachments section).
public enum AttachmentKind: String, CaseIterable, Sendable {
    case audio, image, movie

    public var maximumBytes: Int64 {
        switch self {
        case .audio: 5 * 1024 * 1024
        case .image: 10 * 1024 * 1024
        case .movie: 50 * 1024 * 1024
        }
    }

    /// The MIME types of the kind as the shared MIME database names them; a type that is one of
    /// these (Ogg Vorbis is an Ogg audio file) belongs too.
    public var types: [String] {
        switch self {
        case .audio: ["audio/x-aiff", "audio/x-wav", "audio/mpeg", "audio/mp4", "audio/ogg", "audio/x-m4a"]
        case .image: ["image/jpeg", "image/gif", "image/png"]
        case .movie: ["video/mpeg", "video/mp2t", "video/mp4", "video/x-msvideo", "video/webm"]
        }
    }

    /// The kind of a file of `type`; `isA` says whether it is (or is a subtype of) a given one.
    public static func of(type: String, isA: (String) -> Bool) -> AttachmentKind? {
        allCases.first { kind in kind.types.contains(where: isA) }
    }

    /// The extension Chime's copy of a file of `type` gets, so that programs opening it by its
    /// name (a video player, `xdg-open`) know it.
    public static func fileExtension(type: String, isA: (String) -> Bool) -> String {
        extensions.first { isA($0.type) }?.extension ?? "bin"
    }

    private static let extensions: [(type: String, extension: String)] = [
        ("audio/x-aiff", "aiff"), ("audio/x-wav", "wav"), ("audio/mpeg", "mp3"), ("audio/mp4", "m4a"), ("audio/x-m4a", "m4a"),
        ("audio/ogg", "ogg"), ("image/jpeg", "jpg"), ("image/gif", "gif"), ("image/png", "png"), ("video/mpeg", "mpg"),
        ("video/mp2t", "ts"), ("video/mp4", "mp4"), ("video/x-msvideo", "avi"), ("video/webm", "webm"),
    ]

    /// The name a message says: "an image", "a movie".
    public var named: String {
        switch self {
        case .audio: "an audio file"
        case .image: "an image"
        case .movie: "a movie"
        }
    }
}
