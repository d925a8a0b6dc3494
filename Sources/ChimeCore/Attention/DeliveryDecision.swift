/// What happens to one notification. Decided in one place, `DeliveryDecision.decide`;
/// everything else (signals, sound, the center, badges) follows it.
public struct DeliveryDecision: Equatable, Sendable {
    public enum Hold: Equatable, Sendable {
        case focus(String)
        case summary
    }

    public enum Drop: String, Equatable, Sendable {
        case denied
        case marketing
    }

    public var level: InterruptionLevel
    /// Set when nothing is shown, stored or played: the notification closes at once.
    public var drop: Drop?
    public var hold: Hold?
    public var banner: Bool
    public var sound: Bool
    /// Title and body replaced by the app name and a placeholder when presented.
    public var redacted: Bool
    public var inCenter: Bool
    public var countsTowardBadge: Bool
    /// Critical banners stay until someone closes them.
    public var expires: Bool
    /// The app's timeout as the user set it, over what the notification asks.
    public var timeout: AppSettings.Timeout?
    /// The sound the user chose for the app or by a rule (`AppSettings.sound`), over what it asks.
    public var chosenSound: String?
    /// The user's rules that shaped it, by name (`chimectl show` says them).
    public var rules: [String] = []

    /// The facts the decision depends on besides the notification itself.
    public struct Context: Equatable, Sendable {
        /// The app's settings; the rules' go over them here.
        public var app: AppSettings
        /// What the user's rules that match it change (`RuleEffect`).
        public var rules: RuleEffect?
        public var globalPreviews: AppSettings.Previews = .always
        public var focus: FocusMode?
        public var locked = false
        public var muted = false
        /// The app sent more time-sensitive notifications than its budget allows.
        public var overTimeSensitiveBudget = false

        public init(app: AppSettings, rules: RuleEffect? = nil, globalPreviews: AppSettings.Previews = .always,
                    focus: FocusMode? = nil, locked: Bool = false, muted: Bool = false, overTimeSensitiveBudget: Bool = false) {
            self.app = app
            self.rules = rules
            self.globalPreviews = globalPreviews
            self.focus = focus
            self.locked = locked
            self.muted = muted
            self.overTimeSensitiveBudget = overTimeSensitiveBudget
        }
    }

    public static func decide(_ request: NotificationRequest, identity: String, context: Context) -> DeliveryDecision {
        let app = context.rules?.applied(to: context.app) ?? context.app
        // A rule's level is final: past the app's permissions and its budget.
        let ruleLevel = context.rules?.level
        var level = ruleLevel ?? InterruptionPolicy.level(request, app: app)
        var drop: Drop?
        switch app.authorization {
        case .denied: drop = .denied
        case .provisional: level = .passive  // delivered quietly until the user chooses Keep
        case .allowed: break
        }
        if request.hints.marketing, !app.marketing { drop = drop ?? .marketing }
        if level == .timeSensitive, context.overTimeSensitiveBudget, ruleLevel == nil { level = .active }

        let communication = InterruptionPolicy.isCommunication(request)
        var hold: Hold?
        if app.delivery == .summary, level <= .active, !communication {
            hold = .summary
        } else if let focus = context.focus, !allows(focus, request, identity: identity, level: level) {
            hold = .focus(focus.name)
        }

        let shown = drop == nil && hold == nil && level >= .active
        let previews = app.previews ?? context.globalPreviews
        let inCenter = drop == nil && app.showInCenter && !request.hints.transient
        return DeliveryDecision(
            level: level,
            drop: drop,
            hold: hold,
            banner: shown && (app.banners || level == .critical),
            sound: shown && !request.hints.suppressSound
                && (level == .critical || (app.sounds && !context.muted)),
            redacted: previews == .never || (previews == .whenUnlocked && context.locked),
            inCenter: inCenter,
            countsTowardBadge: inCenter && app.badges,
            expires: level != .critical,
            timeout: app.timeout,
            chosenSound: app.sound,
            rules: context.rules?.rules ?? [])
    }

    /// What a Focus lets through: critical always; time-sensitive if the Focus allows it;
    /// communication from allowed people; anything from allowed apps.
    static func allows(_ focus: FocusMode, _ request: NotificationRequest, identity: String, level: InterruptionLevel) -> Bool {
        if level == .critical { return true }
        if level == .timeSensitive, focus.allowsTimeSensitive { return true }
        if focus.allowedApps.contains(identity) || focus.allowedApps.contains(request.appName) { return true }
        if let person = InterruptionPolicy.person(request), focus.allowsPerson(person) { return true }
        return false
    }
}
