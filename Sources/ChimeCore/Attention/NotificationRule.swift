/// A `[rule NAME]` section of the config: the notifications whose texts match its patterns get
/// its level and settings, over their app's, as dunst's and mako's rules do. The patterns are
/// compiled at the edge (GLib's regular expressions) and reach the core as `TextPattern`s.
public struct NotificationRule: Equatable, Sendable {
    /// What a pattern is matched against.
    public enum Field: String, CaseIterable, Sendable {
        /// The app name, or the desktop entry: either matching is enough (a sandboxed app's name is not matched).
        case app
        case summary
        /// The body's text, its markup taken out.
        case body
        case category

        /// The config key that sets a pattern for this field.
        public var key: String { "match-" + rawValue }
    }

    public struct Criterion: Equatable, Sendable {
        public var field: Field
        public var pattern: any TextPattern

        public init(_ field: Field, _ pattern: any TextPattern) {
            self.field = field
            self.pattern = pattern
        }

        public static func == (a: Self, b: Self) -> Bool { a.field == b.field && a.pattern.source == b.pattern.source }
    }

    /// The app settings a rule may change. An app's consent and permissions are not among them:
    /// those are the app's, asked of the user once (chimed(1)'s attention model).
    public static let settingKeys = ["banners", "timeout", "sounds", "sound", "badges", "previews", "delivery", "show-in-center"]

    public var name: String
    /// Every one must match (`match-app`, `match-summary`, `match-body`, `match-category`).
    public var criteria: [Criterion] = []
    /// `match-urgency`: the urgency the app sent (normal when it sent none).
    public var urgency: Urgency?
    /// `level`: the interruption level, final (see `RuleEffect`).
    public var level: InterruptionLevel?
    /// Keys of `settingKeys` and their text, checked as `AppSettings.set` takes them.
    public var settings: [String: String] = [:]
    /// `exec`: a shell command run for each notification it matches (as dunst's `script` and
    /// mako's `on-notify`), with the notification's fields in its environment.
    public var exec: String?

    public init(name: String) { self.name = name }

    /// Whether `request` matches every pattern and the urgency; nil when a pattern met its match
    /// budget (`TextPattern`) on its text.
    func matches(_ request: NotificationRequest, bodyText: inout String?) -> Bool? {
        if let urgency, (request.hints.urgency ?? .normal) != urgency { return false }
        for criterion in criteria {
            let pattern = criterion.pattern
            let matched: Bool? = switch criterion.field {
            case .app:
                request.sandboxed ? request.hints.desktopEntry.map(pattern.matches) ?? false
                    : pattern.matches(request.appName).flatMap { $0 ? true : request.hints.desktopEntry.map(pattern.matches) ?? false }
            case .summary: pattern.matches(request.summary)
            case .body: pattern.matches(bodyText ?? { bodyText = MarkupText.plain(request.body); return bodyText! }())
            case .category: request.hints.category.map(pattern.matches) ?? false
            }
            guard let matched else { return nil }
            if !matched { return false }
        }
        return true
    }
}

/// A compiled pattern: the core matches texts with it without knowing how it is written.
public protocol TextPattern: Sendable {
    /// As the user wrote it; two patterns with one source are the same.
    var source: String { get }
    /// Whether it matches anywhere in `text`; nil when it met its budget first (a pattern that
    /// backtracks without end on some text, as `(a+)+$` does), so no rule can freeze chimed.
    func matches(_ text: String) -> Bool?
}
