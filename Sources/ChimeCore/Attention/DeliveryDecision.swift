/// What happens to one notification. Decided in one place, `DeliveryDecision.decide`, from the
/// notification, what it replaces or repeats and every fact around it (settings, rules, Focus,
/// lock, mute, budget, rate limit, the last sound, the focused app); everything else (the screen,
/// signals, sound, the center, badges, the app's budget) follows it and nothing rewrites it.
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
    /// Feedback the person caused (design section 21: a stack tag and a `value`, as volume and
    /// brightness scripts send): a banner at once, updated in place, silent, never held, kept
    /// or unread.
    public var feedback = false
    /// The track it announces, when its app's player plays it (design section 25): passive, not
    /// unread, and it takes the place of the app's previous now-playing notification.
    public var nowPlaying: String?
    /// Set when nothing is shown, stored or played: the notification closes at once.
    public var drop: Drop?
    public var hold: Hold?
    public var banner: Bool
    public var sound: Bool
    /// Title and body replaced by the app name and a placeholder when presented.
    public var redacted: Bool
    /// The previews setting in force for it (the app's, a rule's, else the global one), and
    /// whether it asked to hide its text while locked: what `redacted` is worked out again from
    /// when the Focus or the lock changes while it is on screen.
    public var previews: AppSettings.Previews = .always
    public var hidesWhenLocked = false
    public var inCenter: Bool
    /// Unread in the center until read, counted in its app's badge: kept in the center, news to
    /// the person (not an update in place that does not interrupt), and not Chime's own.
    public var unread: Bool
    /// How long it stays open for its app, shown or not (`lifetime(of:level:timeout:)`).
    public var lifetime: Lifetime
    /// The sound the user chose for the app or by a rule (`AppSettings.sound`), over what it asks.
    public var chosenSound: String?
    /// The user's rules that shaped it, by name (`chimectl show` says them).
    public var rules: [String] = []
    /// Time-sensitive or critical, or communication from a person the Focus allows: never merged
    /// into a repeat and never slowed by a rate limit.
    public var mustGetThrough = false
    /// Over the app's rate limit: delivered quietly, or refused when the limit says so.
    public var rateLimited: RateLimiter.Admission = .admitted
    /// Refused (over a rate limit whose action is `refuse`): what the app is told; nothing else
    /// happens to it.
    public var refusal: String?
    /// Interrupts as something new: a new notification, or an update the app asks to interrupt
    /// (`x-chime-interrupt`). An update in place otherwise plays no sound and leaves a notification
    /// the person already read as read.
    public var interrupts = true
    /// Its thread interrupted within its cooldown: it makes no sound, and takes over the thread's
    /// banner (`takesOver`) when that is on screen.
    public var quietInThread = false
    /// The thread's banner on screen that this one updates in place, under its own id.
    public var takesOver: UInt32?
    /// Its app's window has the focus: no banner and no sound (`AppSettings.quietWhenFocused`).
    public var inForeground = false
    /// It repeats an open notification (`Context.repeats`), which takes it in place, its count
    /// raised, with no sound again.
    public var mergesIntoRepeat = false
    /// What it does to its app's time-sensitive budget, for the registry to keep.
    public var budgetChange: TimeSensitiveBudget.Change?
    /// The commands of the rules that matched it (`exec`), run once it is delivered; none for
    /// one that is dropped.
    public var hooks: [RuleEffect.Hook] = []
    /// What Chime offers about its app, said with it (`Offer`).
    public var offers: [Offer] = []
    /// Why it came out so, in order (`reasons(_:…)`): what `chimectl why` says.
    public var reasons: [Reason] = []
    /// What it was decided from besides the notification and the config: what replay takes.
    public var facts = DecisionFacts()

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
        /// The app's time-sensitive budget; nil: not counted (its level stays).
        public var budget: TimeSensitiveBudget?
        /// Unix ms now: the budget's clock.
        public var wall: Int64 = 0
        /// The open notification this one replaces in place (replaces_id or a stack tag), if any.
        public var replacing: NotificationState?
        /// The app's rate limit; nil: not limited.
        public var rateLimit: CenterSettings.RateLimit?
        /// When the notification came: the rate limit's clock.
        public var now = Instant(milliseconds: 0)
        /// Its thread, while the thread's cooldown runs (`ThreadCooldowns`).
        public var cooling: ThreadCooldowns.Cooling?
        /// Its app's window has the focus (`DesktopContext.isFocused`).
        public var appFocused = false
        /// An open notification with the same texts came within the repeat window.
        public var repeats = false
        /// Within this many ms of a sound, another plays only if more urgent (`[sounds] minimum-gap`).
        public var soundGap: Int64 = 0
        /// The person asked to see it (`chimectl restore`, a snooze that ended): no Focus,
        /// summary, banner setting or denial keeps its banner away.
        public var onRequest = false
        /// What time-sensitive means was said with one of the app's notifications already.
        public var explainedTimeSensitive = true
        /// The budget's size, for what an app over it is told.
        public var budgetPerHour = 0
        /// The track its app's media player plays, when its texts name it (`MediaPlayer`).
        public var nowPlaying: String?

        public init(app: AppSettings, rules: RuleEffect? = nil, globalPreviews: AppSettings.Previews = .always,
                    focus: FocusMode? = nil, locked: Bool = false, muted: Bool = false, budget: TimeSensitiveBudget? = nil,
                    wall: Int64 = 0, replacing: NotificationState? = nil, rateLimit: CenterSettings.RateLimit? = nil,
                    now: Instant = Instant(milliseconds: 0), cooling: ThreadCooldowns.Cooling? = nil,
                    appFocused: Bool = false, repeats: Bool = false, soundGap: Int64 = 0, onRequest: Bool = false,
                    explainedTimeSensitive: Bool = true, budgetPerHour: Int = 0) {
            self.app = app
            self.rules = rules
            self.globalPreviews = globalPreviews
            self.focus = focus
            self.locked = locked
            self.muted = muted
            self.budget = budget
            self.wall = wall
            self.replacing = replacing
            self.rateLimit = rateLimit
            self.now = now
            self.cooling = cooling
            self.appFocused = appFocused
            self.repeats = repeats
            self.soundGap = soundGap
            self.onRequest = onRequest
            self.explainedTimeSensitive = explainedTimeSensitive
            self.budgetPerHour = budgetPerHour
        }
    }

    /// What deciding changes besides the one notification: the rate limiter's tokens and when
    /// the last sound played. Replaying, what they said then instead (`replaying`).
    public struct Ledger: Sendable {
        var limiter = RateLimiter()
        var sounds = SoundThrottle()
        var replayed: DecisionFacts?
        public init() {}

        /// Says what `facts` say the rate limit and the sound throttle said (or, where they were
        /// not asked then, that they admit it).
        public init(replaying facts: DecisionFacts) { replayed = facts }

        mutating func admit(_ app: String, at now: Instant, limit: CenterSettings.RateLimit) -> RateLimiter.Admission {
            if let replayed { return replayed.rateLimited == true ? .limited(newly: false) : .admitted }
            return limiter.admit(app, at: now, limit: limit)
        }

        mutating func admitSound(_ level: InterruptionLevel, at now: Instant, gap: Int64) -> Bool {
            if let replayed { return replayed.soundAdmitted ?? true }
            return sounds.admit(level, at: now, gap: gap)
        }
    }

    /// Without a rate limit or a last sound: what the notification would get from the facts alone.
    public static func decide(_ request: NotificationRequest, identity: String, context: Context) -> DeliveryDecision {
        var ledger = Ledger()
        var context = context
        context.rateLimit = nil
        return decide(request, identity: identity, context: context, ledger: &ledger)
    }

    /// `ledger` gives a token of the app's rate limit unless the notification must get through,
    /// and notes its sound; its new state is the decision's too.
    public static func decide(_ request: NotificationRequest, identity: String, context: Context,
                              ledger: inout Ledger) -> DeliveryDecision {
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
        // A player's track change is not news: passive, whatever it asked (not over a rule's level).
        let nowPlaying = app.nowPlaying && ruleLevel == nil ? context.nowPlaying : nil
        if nowPlaying != nil { level = .passive }
        var budgetChange: TimeSensitiveBudget.Change?
        if level == .timeSensitive, ruleLevel == nil, drop == nil, let budget = context.budget {
            budgetChange = budget.counting(at: context.wall)
            if budget.over || budgetChange?.crosses == true { level = .active }
        }

        let communication = InterruptionPolicy.isCommunication(request)
        // Feedback the person caused (a volume key's OSD): shown at once, never held, silent, not kept.
        let feedback = isFeedback(request)
        var hold: Hold?
        if feedback {
            hold = nil
        } else if app.delivery == .summary, level <= .active, !communication {
            hold = .summary
        } else if let focus = context.focus, !allows(focus, request, identity: identity, level: level, app: app) {
            hold = .focus(focus.name)
        }

        // Repeats and rate limits never hold back what must get through (chimed(1)'s notification center).
        let mustGetThrough = level >= .timeSensitive
            || (context.focus.flatMap { focus in InterruptionPolicy.person(request).map(focus.allowsPerson) } ?? false)
        var rateLimited = RateLimiter.Admission.admitted
        var askedLimit = false
        if drop == nil, !mustGetThrough, !feedback, let limit = context.rateLimit {
            rateLimited = ledger.admit(identity, at: context.now, limit: limit)
            askedLimit = true
        }
        let mergesIntoRepeat = context.repeats && !mustGetThrough && context.replacing == nil && !feedback
        let interrupts = context.replacing == nil || request.hints.interrupt
        // One banner for a burst (chimed(1)'s threads): what must get through still interrupts.
        let quietInThread = context.cooling != nil && !mustGetThrough && !request.hints.interrupt && !feedback
        // The person is in the app already (Apple: an app in front shows no banners of its own).
        let inForeground = context.appFocused && app.quietWhenFocused && level < .timeSensitive && !feedback
        // A banner of a higher level keeps the screen: a lower one of its thread within the
        // cooldown goes quietly to the center instead of taking it over.
        let underHigher = quietInThread && (context.cooling?.bannerLevel.map { $0 > level } ?? false)
        let shown = drop == nil && hold == nil && (level >= .active || feedback) && rateLimited == .admitted && !inForeground && !underHigher
        let previews = app.previews ?? context.globalPreviews
        let inCenter = drop == nil && app.showInCenter && !request.hints.transient && !feedback
        var banner = shown && (app.banners || level == .critical)
        // One sound for a burst: within the gap of the last sound only a more urgent one plays.
        let wouldSound = shown && !feedback && interrupts && !mergesIntoRepeat && !quietInThread && !request.hints.suppressSound
            && (level == .critical || (app.sounds && !context.muted)) && level >= .active
        let soundAdmitted = wouldSound ? ledger.admitSound(level, at: context.now, gap: context.soundGap) : nil
        let sound = wouldSound && soundAdmitted == true
        if context.onRequest {
            (hold, drop, banner) = (nil, nil, true)
        }
        var decision = DeliveryDecision(
            level: level,
            feedback: feedback,
            nowPlaying: nowPlaying,
            drop: drop,
            hold: hold,
            banner: banner,
            sound: sound,
            redacted: redacts(previews: previews, hidesWhenLocked: request.hints.hidesPreviewWhenLocked, locked: context.locked,
                              focus: context.focus),
            previews: previews,
            hidesWhenLocked: request.hints.hidesPreviewWhenLocked,
            inCenter: inCenter,
            unread: inCenter && interrupts && identity != Attention.ownIdentity && nowPlaying == nil,
            lifetime: lifetime(of: request, level: level, timeout: app.timeout),
            chosenSound: app.sound,
            rules: context.rules?.rules ?? [],
            mustGetThrough: mustGetThrough,
            rateLimited: rateLimited,
            interrupts: interrupts,
            quietInThread: quietInThread,
            takesOver: quietInThread && banner ? context.cooling?.banner : nil,
            inForeground: inForeground,
            mergesIntoRepeat: mergesIntoRepeat,
            budgetChange: budgetChange,
            hooks: drop == nil && !context.onRequest ? context.rules?.hooks ?? [] : [],
            offers: drop == nil ? offers(request, app: app, level: level, ruleLevel: ruleLevel, budgetChange: budgetChange, context: context) : [])
        if rateLimited != .admitted, context.rateLimit?.action == .refuse {
            decision.refusal = "\(request.appName) sent more than \(context.rateLimit!.burst) notifications at once; try again later"
        }
        decision.reasons = reasons(decision, request: request, identity: identity, app: app, context: context,
                                   requested: InterruptionPolicy.requestedLevel(request), underHigher: underHigher)
        decision.facts = DecisionFacts(decision, request: request, context: context,
                                       rateLimited: askedLimit ? rateLimited != .admitted : nil, soundAdmitted: soundAdmitted)
        return decision
    }

    /// A stack tag and a `value`, whatever its urgency: what OSD scripts send on each key press;
    /// or what KDE marks `x-kde-user-action-feedback`.
    public static func isFeedback(_ request: NotificationRequest) -> Bool {
        (request.hints.progress != nil && !(request.hints.stackTag ?? "").isEmpty) || request.hints.userActionFeedback
    }

    /// How long a notification stays open before it expires.
    public enum Lifetime: Equatable, Sendable {
        /// Until the person or the app closes it.
        case untilClosed
        case after(Duration)
        /// The server's default timeout (`[general] default-timeout`).
        case serverDefault
    }

    /// Critical stays until closed (design section 2); else the app's timeout as the user set
    /// it, over what the notification asks, urgency critical included (an app that sends every
    /// message critical is what it is set against); else urgency critical stays (the spec), and
    /// `expire_timeout` says: 0 never, -1 the server's default.
    public static func lifetime(of request: NotificationRequest, level: InterruptionLevel,
                                timeout: AppSettings.Timeout?) -> Lifetime {
        if level == .critical { return .untilClosed }
        switch timeout {
        case .never?: return .untilClosed
        case .after(let duration)?: return .after(duration)
        case nil: break
        }
        if request.hints.urgency == .critical { return .untilClosed }
        switch request.expireTimeout {
        case 0: return .untilClosed
        case ..<0: return .serverDefault
        default: return .after(.milliseconds(request.expireTimeout))
        }
    }

    /// Keep or Turn Off, with each notification of a provisional app (as Apple's center offers
    /// them); what time-sensitive means, with the app's first one the app asked for (not a rule of
    /// the user's); letting them through again, with the one that took it past its budget.
    private static func offers(_ request: NotificationRequest, app: AppSettings, level: InterruptionLevel, ruleLevel: InterruptionLevel?,
                               budgetChange: TimeSensitiveBudget.Change?, context: Context) -> [Offer] {
        var offers: [Offer] = []
        if app.authorization == .provisional {
            offers.append(.provisional(request.appName))
        }
        if level == .timeSensitive, ruleLevel == nil, !context.explainedTimeSensitive {
            offers.append(.explainingTimeSensitive(request.appName))
        }
        if budgetChange?.crosses == true { offers.append(.overBudget(request.appName, perHour: context.budgetPerHour)) }
        return offers
    }

    /// Whether a notification's text is hidden where the screen shows it: its previews setting,
    /// the lock, and a Focus that hides previews (while the screen is shared).
    public static func redacts(previews: AppSettings.Previews, hidesWhenLocked: Bool, locked: Bool, focus: FocusMode?) -> Bool {
        previews == .never || ((previews == .whenUnlocked || hidesWhenLocked) && locked) || focus?.hidesPreviews == true
    }

    /// What a Focus lets through: critical always; time-sensitive if the Focus allows it;
    /// communication from allowed people; anything from allowed apps; over a fullscreen window,
    /// the apps that asked not to wait.
    static func allows(_ focus: FocusMode, _ request: NotificationRequest, identity: String, level: InterruptionLevel,
                       app: AppSettings) -> Bool {
        if level == .critical { return true }
        if focus.name == FocusMode.fullscreen, !app.holdInFullscreen { return true }
        if level == .timeSensitive, focus.allowsTimeSensitive { return true }
        if focus.allowedApps.contains(identity) { return true }
        if !request.sandboxed, focus.allowedApps.contains(request.appName) { return true }
        if let person = InterruptionPolicy.person(request), focus.allowsPerson(person) { return true }
        return false
    }
}
