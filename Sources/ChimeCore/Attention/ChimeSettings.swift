/// Everything the config file sets, as values. The loader (an adapter) fills it from
/// GKeyFile and validates it; the core only reads it.
public struct ChimeSettings: Equatable, Sendable {
    public var server = ServerSettings()
    /// What a new app gets: `allowed`, or `provisional` to decide on each app.
    public var defaultAuthorization: AppSettings.Authorization = .allowed
    public var previews: AppSettings.Previews = .always
    /// Time-sensitive notifications an app may send in an hour before they arrive as active.
    public var timeSensitiveBudget = 3
    /// What apps that set none get for `quiet-when-focused`, `hold-in-fullscreen` and
    /// `now-playing` (`AppSettings`).
    public var quietWhenFocused = true
    public var holdInFullscreen = true
    public var nowPlaying = true
    public var focusModes: [FocusMode] = FocusMode.builtIn
    public var summaryTimes: [ClockTime] = []
    public var sounds = SoundSettings()
    public var center = CenterSettings()
    public var popups = PopupSettings()
    public var panel = PanelSettings()
    /// `[app NAME]` sections: setting key -> text value, validated on load.
    public var apps: [String: [String: String]] = [:]
    /// `[rule NAME]` sections, in the file's order.
    public var rules: [NotificationRule] = []

    public init() {}

    public func focus(named name: String) -> FocusMode? { focusModes.first { $0.name == name } }
}
