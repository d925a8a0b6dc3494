/// Every key of the config file, declared once: its section, what it takes, its default as the
/// file writes it, and what it does. The loader takes its keys from here (a key not here is a
/// mistake of the file's), and tests hold chime.conf(5) and chime.conf.example to it.
public struct Setting: Sendable {
    public enum Section: String, CaseIterable, Sendable {
        case general, popups, panel, summary, sounds, focus, app, rule
    }

    public var section: Section
    public var key: String
    /// What it takes, in words: "true or false", "milliseconds".
    public var takes: String
    /// The value in force when the file does not set it, as the file would write it; nil when
    /// there is none (the key is off, empty, or follows another setting).
    public var byDefault: String?
    public var meaning: String

    init(_ section: Section, _ key: String, _ takes: String, _ byDefault: String?, _ meaning: String) {
        (self.section, self.key, self.takes, self.byDefault, self.meaning) = (section, key, takes, byDefault, meaning)
    }

    /// The keys a section takes, in the table's order.
    public static func keys(in section: Section) -> [String] {
        all.filter { $0.section == section }.map(\.key)
    }

    static let bool = "true or false"
    static let duration = "a duration: 30s, 2m, 1h, 30d; 0 is off"

    public static let all: [Setting] = [
        .init(.general, "default-timeout", "milliseconds", "5000", "how long a banner stays when the app asks for the server's default (-1)"),
        .init(.general, "default-authorization", "allowed or provisional", "allowed", "what a new app gets; provisional apps are quiet until you choose Keep"),
        .init(.general, "previews", "always, when-unlocked or never", "always", "hidden previews for apps without their own setting"),
        .init(.general, "time-sensitive-budget", "a count", "3", "time-sensitive notifications an app may send in an hour before they arrive as active"),
        .init(.general, "repeat-window", duration, "60s", "the same app, summary and body again within it is merged on screen (×2)"),
        .init(.general, "thread-cooldown", duration, "2m", "after a thread interrupts, its next notifications within it update its banner quietly"),
        .init(.general, "quiet-when-focused", bool, "true", "the focused app's own notifications get no banner and no sound"),
        .init(.general, "hold-in-fullscreen", bool, "true", "banners and sounds wait while a fullscreen window has the focus"),
        .init(.general, "now-playing", bool, "true", "a media player's notification naming its track is passive, one per app"),
        .init(.general, "rate-limit-burst", "a count", "20", "notifications an app may send at once before its rate limit"),
        .init(.general, "rate-limit-per-minute", "a count", "60", "then this many a minute"),
        .init(.general, "rate-limit-action", "quiet or refuse", "quiet", "over the limit: delivered quietly, or refused with ExcessNotificationGeneration"),
        .init(.general, "history-max", "a count", "1000", "the most notifications the center keeps; the oldest go first"),
        .init(.general, "history-max-age", duration, "30d", "the center keeps none older"),

        .init(.popups, "enabled", bool, "true", "draw banners when there is a display"),
        .init(.popups, "anchor", "top-right, top-left, bottom-right, bottom-left, top or bottom", "top-right", "where banners stack"),
        .init(.popups, "margin", "pixels", "12", "from the screen's edge"),
        .init(.popups, "gap", "pixels", "8", "between banners"),
        .init(.popups, "width", "pixels", "380", "the banners' width"),
        .init(.popups, "max-visible", "a count", "5", "banners shown at once; the rest are counted in one \"+N more\" line"),
        .init(.popups, "icon-size", "pixels", "48", "the size of a banner's icon or image"),
        .init(.popups, "output", "a connector name (DP-1)", nil, "the monitor; unset: the primary one on X11, the compositor's choice on Wayland"),
        .init(.popups, "left-click", "default-action, dismiss, dismiss-all, menu or none", "default-action", "what a left click on a banner does"),
        .init(.popups, "middle-click", "default-action, dismiss, dismiss-all, menu or none", "dismiss", "what a middle click does"),
        .init(.popups, "right-click", "default-action, dismiss, dismiss-all, menu or none", "dismiss", "what a right click does"),
        .init(.popups, "idle-exit", duration, "30s", "the banner program leaves after this long with nothing on screen"),

        .init(.panel, "edge", "right or left", "right", "the edge the Notification Center panel stands against"),
        .init(.panel, "width", "pixels", "420", "the panel's width"),
        .init(.panel, "output", "a connector name (DP-1)", nil, "the monitor, as for banners"),

        .init(.summary, "times", "times HH:MM, separated by ;", nil, "when apps with delivery = summary get their notifications, in one summary"),

        .init(.sounds, "theme", "an XDG sound theme", "chime", "where sounds are found; Chime's own inherits freedesktop's"),
        .init(.sounds, "active", "a sound event id", "message-new-instant", "the sound of active notifications"),
        .init(.sounds, "time-sensitive", "a sound event id", "chime-time-sensitive", "the sound of time-sensitive notifications"),
        .init(.sounds, "critical", "a sound event id", "chime-critical", "the sound of critical notifications"),
        .init(.sounds, "volume", "decibels", "0", "0 is as recorded, -6 about half as loud"),
        .init(.sounds, "mute", bool, "false", "silence everything but critical (chimectl mute changes it, and is kept)"),
        .init(.sounds, "minimum-gap", "milliseconds", "1000", "within it after a sound, only a more urgent one plays"),

        .init(.focus, "allowed-apps", "app identities, separated by ;", nil, "apps whose notifications get through"),
        .init(.focus, "allowed-people", "names, separated by ;", nil, "people whose messages and calls get through, in any case"),
        .init(.focus, "allow-time-sensitive", bool, "true", "time-sensitive notifications get through"),
        .init(.focus, "hide-badges", bool, "false", "apps' badges are hidden while it is on"),
        .init(.focus, "hide-previews", bool, "false", "what it lets through shows with its preview hidden"),
        .init(.focus, "schedule", "DAYS HH:MM-HH:MM, separated by ;", nil, "when it turns on by itself; DAYS: daily, weekdays, weekends, mon-fri, sat,sun"),

        .init(.app, "authorization", "allowed, provisional or denied", nil, "whether it may notify; unset: [general] default-authorization"),
        .init(.app, "banners", bool, "true", "its notifications show banners"),
        .init(.app, "timeout", "milliseconds, never or default", "default", "how long its banners stay, over what it asks"),
        .init(.app, "sounds", bool, "true", "its notifications play sounds"),
        .init(.app, "sound", "a sound event id, an absolute path, or default", "default", "the sound its notifications play, over what it asks"),
        .init(.app, "badges", bool, "true", "its unread count shows as a badge"),
        .init(.app, "previews", "always, when-unlocked, never or default", "default", "hidden previews; default: [general] previews"),
        .init(.app, "time-sensitive", bool, "true", "it may send time-sensitive notifications"),
        .init(.app, "critical-alerts", bool, "false", "it may send critical ones; urgency critical is critical then"),
        .init(.app, "marketing", bool, "false", "notifications marked x-chime-marketing are kept"),
        .init(.app, "delivery", "immediate or summary", "immediate", "summary: held for the [summary] times"),
        .init(.app, "show-in-center", bool, "true", "its notifications are kept in the center"),
        .init(.app, "thread-cooldown", "a duration, 0 or default", "default", "its threads' cooldown; default: [general] thread-cooldown"),
        .init(.app, "quiet-when-focused", bool, nil, "over [general] quiet-when-focused"),
        .init(.app, "hold-in-fullscreen", bool, nil, "over [general] hold-in-fullscreen"),
        .init(.app, "now-playing", bool, nil, "over [general] now-playing"),
        .init(.app, "attachment-quota", "a size (100MB, 512K) or default", "default", "how much of the attachment store its files may take; default: 100MB"),

        .init(.rule, "match-app", "a regular expression", nil, "the app name or its desktop entry"),
        .init(.rule, "match-summary", "a regular expression", nil, "the summary"),
        .init(.rule, "match-body", "a regular expression", nil, "the body's text, markup taken out"),
        .init(.rule, "match-category", "a regular expression", nil, "the category hint"),
        .init(.rule, "match-urgency", "low, normal or critical", nil, "the urgency; none sent is normal"),
        .init(.rule, "level", "passive, active, time-sensitive or critical", nil, "the level, final: past the app's permissions and budget"),
        .init(.rule, "banners", bool, nil, "as for an app"),
        .init(.rule, "timeout", "milliseconds, never or default", nil, "as for an app"),
        .init(.rule, "sounds", bool, nil, "as for an app"),
        .init(.rule, "sound", "a sound event id, an absolute path, or default", nil, "as for an app"),
        .init(.rule, "badges", bool, nil, "as for an app"),
        .init(.rule, "previews", "always, when-unlocked, never or default", nil, "as for an app"),
        .init(.rule, "delivery", "immediate or summary", nil, "as for an app"),
        .init(.rule, "show-in-center", bool, nil, "as for an app"),
        .init(.rule, "exec", "a shell command", nil, "run for each notification it matches, its fields in the environment"),
    ]
}
