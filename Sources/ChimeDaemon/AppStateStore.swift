import ChimeConfig
import ChimeCore
import ChimeGLib

/// Keeps what the user changed at run time in `$XDG_STATE_HOME/chime/apps.state`, a GKeyFile,
/// mode 0600: the app registry (settings changed with chimectl or by answering a prompt, and
/// what Chime already asked), `chimectl mute`, a Focus turned on by hand and `chimectl sharing`.
struct AppStateStore {
    let path: String

    /// `$XDG_STATE_HOME/chime`, else `~/.local/state/chime`: apps.state and chime.db live here.
    static func stateFolder(environment: [String: String]) -> String {
        chimeFolder("XDG_STATE_HOME", fallback: ".local/state", environment: environment)
    }

    static func defaultPath(environment: [String: String]) -> String {
        stateFolder(environment: environment) + "/apps.state"
    }

    private static var flags: [(key: String, path: WritableKeyPath<AppRegistry.Record, Bool>)] { [
        ("explained-time-sensitive", \.explainedTimeSensitive),
        ("over-budget", \.overBudget),
        ("budget-exempt", \.budgetExempt),
    ] }

    struct Saved {
        var apps = AppRegistry()
        var muted: Bool?
        /// A Focus turned on, or a scheduled one turned off, by hand.
        var focus: FocusState.Manual?
        /// `chimectl sharing on`: a restart during a screencast must not show what it holds.
        var sharing = false
    }

    func load() -> Saved {
        var saved = Saved()
        guard case .success(let text) = FileContents.read(path) else { return saved }
        let file = KeyFile()
        if let error = file.load(text) {
            Log.warning("\(path): \(error); starting with no saved app settings")
            return saved
        }
        for group in file.groups where group.hasPrefix("app ") {
            var record = AppRegistry.Record()
            for key in file.keys(in: group) {
                let value = file.string(group, key) ?? ""
                if key.hasPrefix("set.") {
                    record.overrides[String(key.dropFirst(4))] = value
                } else if let flag = Self.flags.first(where: { $0.key == key }) {
                    record[keyPath: flag.path] = value == "true"
                }
            }
            saved.apps.restore(KeyFile.unescaped(String(group.dropFirst(4))), record)
        }
        saved.muted = file.string("daemon", "muted").flatMap(AppSettings.bool)
        saved.sharing = file.string("daemon", "sharing").flatMap(AppSettings.bool) ?? false
        if let focus = file.string("daemon", "focus"), !focus.isEmpty {
            saved.focus = .on(focus, until: file.string("daemon", "focus-until").flatMap { Int64($0) })
        } else if let off = file.string("daemon", "focus-off"), !off.isEmpty,
                  let checked = file.string("daemon", "focus-off-checked").flatMap(Self.localTime) {
            saved.focus = .offDuringSchedule(off, checked: checked)
        }
        return saved
    }

    /// "DAY WEEKDAY MINUTE", as `save` writes a local time.
    private static func localTime(_ text: String) -> LocalTime? {
        let numbers = text.split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 3, let weekday = Weekday(rawValue: numbers[1]), (0..<1_440).contains(numbers[2]) else { return nil }
        return LocalTime(day: numbers[0], weekday: weekday, minuteOfDay: numbers[2])
    }

    func save(_ registry: AppRegistry, muted: Bool?, focus: FocusState.Manual?, sharing: Bool) {
        let file = KeyFile()
        if let muted { file.set("daemon", "muted", "\(muted)") }
        if sharing { file.set("daemon", "sharing", "true") }
        switch focus {
        case .on(let name, let until)?:
            file.set("daemon", "focus", name)
            if let until { file.set("daemon", "focus-until", "\(until)") }
        case .offDuringSchedule(let name, let checked)?:
            file.set("daemon", "focus-off", name)
            file.set("daemon", "focus-off-checked", "\(checked.day) \(checked.weekday.rawValue) \(checked.minuteOfDay)")
        case nil:
            break
        }
        for identity in registry.identities {
            guard let record = registry.record(identity) else { continue }
            let group = "app " + KeyFile.escaped(identity)
            file.set(group, "seen", "true")
            for (key, value) in record.overrides.sorted(by: { $0.key < $1.key }) { file.set(group, "set." + key, value) }
            for flag in Self.flags where record[keyPath: flag.path] { file.set(group, flag.key, "true") }
        }
        if let error = FileContents.write(file.text, to: path) {
            Log.warningOnce(key: "save-apps", "cannot save app settings to \(path): \(error.message)")
        }
    }
}
