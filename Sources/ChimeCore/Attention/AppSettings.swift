/// What the user allows an app, per chimed(1)'s attention model.
public struct AppSettings: Equatable, Sendable {
    public enum Authorization: String, CaseIterable, Sendable { case allowed, provisional, denied }
    public enum Previews: String, CaseIterable, Sendable {
        case always
        case whenUnlocked = "when-unlocked"
        case never
    }
    public enum Delivery: String, CaseIterable, Sendable { case immediate, summary }
    /// How long the app's banners stay, whatever the app asks (as dunst's `override_dbus_timeout`:
    /// the timeout users set for an app is the one they want, and apps that ask for 3 s or for
    /// "never" are what they set it against).
    public enum Timeout: Equatable, Sendable {
        case never
        case after(Duration)
    }

    public var authorization: Authorization = .allowed
    public var banners = true
    /// nil = as the app asks, else `[general] default-timeout`.
    public var timeout: Timeout?
    public var sounds = true
    /// The sound its notifications play, over what the app asks and the level's own: an event of
    /// the sound theme (`message-new-email`) or an absolute path to a sound file. nil = as asked.
    /// Critical notifications keep Chime's critical sound: that one must be told apart.
    public var sound: String?
    public var badges = true
    /// nil = the global `[general] previews`.
    public var previews: Previews?
    public var timeSensitive = true
    public var criticalAlerts = false
    public var marketing = false
    public var delivery: Delivery = .immediate
    public var showInCenter = true
    /// How long after one of its threads interrupted the thread's next notifications update its
    /// banner quietly; nil = `[general] thread-cooldown`, zero = every notification interrupts.
    public var threadCooldown: Duration?
    /// Its notifications get no banner and no sound while its window has the focus (time-sensitive
    /// and critical ones still do); `[general] quiet-when-focused` says for apps that set none.
    public var quietWhenFocused = true
    /// Its banners and sounds wait while a fullscreen window has the focus (`FocusMode.fullscreen`);
    /// `[general] hold-in-fullscreen` says for apps that set none.
    public var holdInFullscreen = true
    /// A notification naming the track its media player plays is "now playing" (`MediaPlayer`);
    /// `[general] now-playing` says for apps that set none.
    public var nowPlaying = true
    /// How much its notifications' attachments may take in the attachment store; nil = the default.
    public var attachmentQuota: Int64?

    public init() {}

    /// The attachment quota in force.
    public var attachmentBytes: Int64 { attachmentQuota ?? AttachmentQuota.defaultBytes }

    /// Setting names as config keys and `chimectl apps set` use them.
    public static let keys = Setting.keys(in: .app)

    /// Sets one key from its text form, or says why the value does not fit.
    public mutating func set(_ key: String, to text: String) -> String? {
        func bool() -> Bool? { Self.bool(text) }
        func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> T? where T.RawValue == String {
            T(rawValue: text.lowercased())
        }
        func badChoice<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> String where T.RawValue == String {
            "'\(text)' is not one of: " + T.allCases.map(\.rawValue).joined(separator: ", ")
        }
        let notBool = "'\(text)' is not true or false"
        switch key {
        case "authorization":
            guard let value = choice(Authorization.self) else { return badChoice(Authorization.self) }
            authorization = value
        case "previews" where text.lowercased() == "default":
            previews = nil
        case "previews":
            guard let value = choice(Previews.self) else { return badChoice(Previews.self) }
            previews = value
        case "delivery":
            guard let value = choice(Delivery.self) else { return badChoice(Delivery.self) }
            delivery = value
        case "timeout":
            switch text.lowercased() {
            case "default": timeout = nil
            case "never": timeout = .never
            default:
                guard let milliseconds = Int64(text), milliseconds > 0 else {
                    return "'\(text)' is not a number of milliseconds, never or default"
                }
                timeout = .after(.milliseconds(milliseconds))
            }
        case "sound":
            if text.lowercased() == "default" {
                sound = nil
            } else if let problem = Self.soundProblem(text) {
                return problem
            } else {
                sound = text
            }
        case "banners": guard let value = bool() else { return notBool }; banners = value
        case "sounds": guard let value = bool() else { return notBool }; sounds = value
        case "badges": guard let value = bool() else { return notBool }; badges = value
        case "time-sensitive": guard let value = bool() else { return notBool }; timeSensitive = value
        case "critical-alerts": guard let value = bool() else { return notBool }; criticalAlerts = value
        case "marketing": guard let value = bool() else { return notBool }; marketing = value
        case "show-in-center": guard let value = bool() else { return notBool }; showInCenter = value
        case "quiet-when-focused": guard let value = bool() else { return notBool }; quietWhenFocused = value
        case "hold-in-fullscreen": guard let value = bool() else { return notBool }; holdInFullscreen = value
        case "now-playing": guard let value = bool() else { return notBool }; nowPlaying = value
        case "thread-cooldown" where text.lowercased() == "default":
            threadCooldown = nil
        case "thread-cooldown":
            guard let span = DurationText.span(text) else { return "'\(text)' is not a duration such as 2m, 0 or default" }
            threadCooldown = span
        case "attachment-quota" where text.lowercased() == "default":
            attachmentQuota = nil
        case "attachment-quota":
            guard let bytes = ByteCount.parse(text) else { return "'\(text)' is not a size such as 100MB, 512K or default" }
            attachmentQuota = bytes
        default:
            return "unknown setting '\(key)'; settings are: " + Self.keys.joined(separator: ", ")
        }
        return nil
    }

    /// Why `text` is neither a theme's event id nor an absolute path without `..`, if it is not.
    /// (Whether the file is a sound is for the edge to say: the core reads no files.)
    static func soundProblem(_ text: String) -> String? {
        let problem = "'\(text)' is not a sound theme's event name (message-new-email), an absolute path to a sound file, or default"
        if text.hasPrefix("/") {
            return text.split(separator: "/").contains("..") ? problem : nil
        }
        let allowed = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "." }
        return !text.isEmpty && text.utf8.count <= 255 && allowed ? nil : problem
    }

    /// A boolean as the config and chimectl take it: true/false, yes/no, on/off, 1/0.
    public static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }

    /// Each key with its value in text form, in the order of `keys`.
    public var textValues: [(key: String, value: String)] {
        [("authorization", authorization.rawValue), ("banners", "\(banners)"), ("timeout", timeoutText), ("sounds", "\(sounds)"),
         ("sound", sound ?? "default"),
         ("badges", "\(badges)"), ("previews", previews?.rawValue ?? "default"),
         ("time-sensitive", "\(timeSensitive)"), ("critical-alerts", "\(criticalAlerts)"),
         ("marketing", "\(marketing)"), ("delivery", delivery.rawValue), ("show-in-center", "\(showInCenter)"),
         ("thread-cooldown", threadCooldown.map(DurationText.text) ?? "default"),
         ("quiet-when-focused", "\(quietWhenFocused)"), ("hold-in-fullscreen", "\(holdInFullscreen)"),
         ("now-playing", "\(nowPlaying)"),
         ("attachment-quota", attachmentQuota.map(ByteCount.exactText) ?? "default")]
    }

    private var timeoutText: String {
        switch timeout {
        case nil: "default"
        case .never: "never"
        case .after(let duration): String(duration.milliseconds)
        }
    }
}
