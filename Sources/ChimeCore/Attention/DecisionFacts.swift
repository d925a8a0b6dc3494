/// The facts a decision took besides the notification and the config (design section 23): the
/// Focus and what the person was doing, and what the moments before it left (its thread's banner,
/// the app's budget, the rate limit, the last sound). Kept with the notification in the center,
/// so `chimectl replay` decides it again, under the running config or another, and sees what
/// would have changed; with what came out, to compare.
public struct DecisionFacts: Equatable, Sendable {
    /// The Focus on (its name; its rules are the config's at replay).
    public var focus: String?
    public var locked = false
    public var muted = false
    public var appFocused = false
    public var repeats = false
    public var onRequest = false
    /// The state of what it replaced in place, if it replaced one.
    public var replacing: String?
    /// Its thread's cooldown ran, and the level of the banner the thread had, if any.
    public var cooling = false
    public var coolingBanner = false
    public var coolingLevel: InterruptionLevel?
    /// The app's time-sensitive notifications in the hour before it, when its budget counted.
    public var budgetRecent: Int?
    public var budgetOver = false
    public var budgetExempt = false
    /// What the rate limit and the sound throttle said, when they were asked.
    public var rateLimited: Bool?
    public var soundAdmitted: Bool?
    public var explainedTimeSensitive = true
    /// The track its app's media player played, when its texts named it (`MediaPlayer`).
    public var nowPlaying: String?
    /// The level the app asked for by Chime's hint, if it did (the center keeps the level decided).
    public var asked: InterruptionLevel?
    /// What came out.
    public var level: InterruptionLevel = .active
    public var banner = false
    public var sound = false
    /// "summary", or the Focus that held it.
    public var hold: String?

    public init() {}

    /// What `decision` was decided from, and what came of it.
    init(_ decision: DeliveryDecision, request: NotificationRequest, context: DeliveryDecision.Context,
         rateLimited: Bool?, soundAdmitted: Bool?) {
        focus = context.focus?.name
        (locked, muted, appFocused, repeats, onRequest) = (context.locked, context.muted, context.appFocused, context.repeats, context.onRequest)
        replacing = context.replacing?.name
        cooling = context.cooling != nil
        coolingBanner = context.cooling?.banner != nil
        coolingLevel = context.cooling?.bannerLevel
        if let budget = context.budget {
            budgetRecent = budget.recent.filter { context.wall - $0 < 3_600_000 }.count
            (budgetOver, budgetExempt) = (budget.over, budget.exempt)
        }
        self.rateLimited = rateLimited
        self.soundAdmitted = soundAdmitted
        explainedTimeSensitive = context.explainedTimeSensitive
        nowPlaying = context.nowPlaying
        asked = request.hints.interruptionLevel
        (level, banner, sound) = (decision.level, decision.banner, decision.sound)
        switch decision.hold {
        case .summary?: hold = "summary"
        case .focus(let name)?: hold = name
        case nil: hold = nil
        }
    }

    /// The context they stand for under `settings`: the app's settings, its rules and the Focus
    /// are the config's; what the moment was (the Focus's name, the thread, the budget, the
    /// lock) is theirs.
    func context(for request: NotificationRequest, identity: String, app: AppSettings, rules: RuleEffect?,
                 settings: ChimeSettings, wall: Int64) -> DeliveryDecision.Context {
        var context = DeliveryDecision.Context(app: app, rules: rules, globalPreviews: settings.previews,
                                               focus: focus.flatMap(settings.focus(named:)), locked: locked, muted: muted,
                                               wall: wall, appFocused: appFocused, repeats: repeats, onRequest: onRequest,
                                               explainedTimeSensitive: explainedTimeSensitive, budgetPerHour: settings.timeSensitiveBudget)
        context.nowPlaying = nowPlaying
        context.replacing = replacing.map { _ in .quiet }
        if cooling { context.cooling = ThreadCooldowns.Cooling(banner: coolingBanner ? 0 : nil, bannerLevel: coolingLevel) }
        if let budgetRecent {
            context.budget = TimeSensitiveBudget(perHour: settings.timeSensitiveBudget, recent: Array(repeating: wall, count: budgetRecent),
                                                 over: budgetOver, exempt: budgetExempt)
        }
        // Asked again, the rate limit says what it said then.
        context.rateLimit = settings.center.rateLimit
        context.soundGap = settings.sounds.minimumGap
        return context
    }

    /// As the center keeps it: `key=value` pairs, `;` between them, `%`, `;` and `=` escaped.
    public var encoded: String {
        var text = ""
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            if !text.isEmpty { text += ";" }
            text += Self.escape(key)
            text += "="
            text += Self.escape(value)
        }
        func flag(_ key: String, _ on: Bool) { if on { add(key, "1") } }
        add("focus", focus)
        flag("locked", locked)
        flag("muted", muted)
        flag("focused", appFocused)
        flag("repeats", repeats)
        flag("request", onRequest)
        add("replacing", replacing)
        flag("cooling", cooling)
        flag("cooling-banner", coolingBanner)
        add("cooling-level", coolingLevel?.rawValue)
        add("budget", budgetRecent.map(String.init))
        flag("budget-over", budgetOver)
        flag("budget-exempt", budgetExempt)
        add("limited", rateLimited.map { $0 ? "1" : "0" })
        add("sound-admitted", soundAdmitted.map { $0 ? "1" : "0" })
        flag("unexplained", !explainedTimeSensitive)
        add("now-playing", nowPlaying)
        add("asked", asked?.rawValue)
        add("level", level.rawValue)
        flag("banner", banner)
        flag("sound", sound)
        add("hold", hold)
        return text
    }

    /// Read from `encoded`; nil for text that is not one.
    public init?(encoded text: String) {
        var values: [String: String] = [:]
        for pair in text.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            values[Self.unescape(parts[0])] = Self.unescape(parts[1])
        }
        guard let level = values["level"].flatMap(InterruptionLevel.init(rawValue:)) else { return nil }
        func on(_ key: String) -> Bool { values[key] == "1" }
        focus = values["focus"]
        (locked, muted, appFocused, repeats, onRequest) = (on("locked"), on("muted"), on("focused"), on("repeats"), on("request"))
        replacing = values["replacing"]
        (cooling, coolingBanner) = (on("cooling"), on("cooling-banner"))
        coolingLevel = values["cooling-level"].flatMap(InterruptionLevel.init(rawValue:))
        budgetRecent = values["budget"].flatMap { Int($0) }
        (budgetOver, budgetExempt) = (on("budget-over"), on("budget-exempt"))
        rateLimited = values["limited"].map { $0 == "1" }
        soundAdmitted = values["sound-admitted"].map { $0 == "1" }
        explainedTimeSensitive = !on("unexplained")
        nowPlaying = values["now-playing"]
        asked = values["asked"].flatMap(InterruptionLevel.init(rawValue:))
        self.level = level
        (banner, sound) = (on("banner"), on("sound"))
        hold = values["hold"]
    }

    private static func escape(_ text: String) -> String {
        // Most values (a level, a Focus's name, a number) have nothing to escape.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "=") }) { return text }
        var out = ""
        for character in text {
            switch character {
            case "%": out += "%25"
            case ";": out += "%3B"
            case "=": out += "%3D"
            default: out.append(character)
            }
        }
        return out
    }

    private static func unescape(_ text: Substring) -> String {
        var out = ""
        var rest = text[...]
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let code = rest[percent...].prefix(3)
            switch code {
            case "%25": out += "%"
            case "%3B": out += ";"
            case "%3D": out += "="
            default: out += code
            }
            rest = rest[rest.index(percent, offsetBy: code.count)...]
        }
        return out + rest
    }
}
