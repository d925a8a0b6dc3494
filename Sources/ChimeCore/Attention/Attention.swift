/// The attention model around the freedesktop server: every notification passes through
/// `DeliveryDecision`, Focus and summaries hold what they must, apps are asked once what
/// they may do, and Chime's own notifications (prompts and summaries) are made here.
/// Pure state: the daemon passes `now` and turns the returned events into signals.
public struct Attention: Sendable {
    /// The sender of Chime's own notifications; their actions are handled here, not sent anywhere.
    public static let selfSender = "chimed"
    public static let actionPrefix = "chime:"

    public private(set) var settings: ChimeSettings {
        didSet { forgetKnownApps() }
    }
    public var server: NotificationServer
    public var apps = AppRegistry() {
        didSet { forgetKnownApps() }
    }
    /// What Notify reads about each app, worked out once from the config and the registry, so it
    /// neither re-reads the config's text values nor looks the app up in the registry each time;
    /// emptied whenever either changes.
    private var knownApps: [String: KnownApp] = [:]
    /// The last app `known` answered for: a stream from one app compares its name with this
    /// one's instead of hashing it for the dictionary.
    private var lastKnown: (identity: String, app: KnownApp)?
    public var focus = FocusState()
    public var locked = false
    /// Apps that send their own LauncherEntry count (`ownBadgeSent`): Chime announces none for them.
    public internal(set) var appsWithOwnBadges: Set<String> = []
    /// The media players on the bus and what they play, as they say (`MediaPlayer`).
    public var players: [MediaPlayer] = []
    /// Each app's last "now playing" notification, which the next one takes the place of.
    public var nowPlayingIDs: [String: UInt32] = [:]
    /// What the person is doing, as the desktop says; set by `follow(_:now:)`.
    public private(set) var desktop = DesktopContext()
    /// `chimectl mute`, kept across restarts; nil follows `[sounds] mute` (`setMuted`).
    public var muteOverride: Bool?
    public var muted: Bool { muteOverride ?? settings.sounds.muted }
    /// The Focus last seen active, so its end is noticed and summarised.
    public private(set) var currentFocus: FocusState.Active?
    var heldDuringFocus = HeldDuringFocus()
    /// What the last Focus to end held, and its name: its notification's Show lists them.
    private var lastHeld: (focus: String, held: HeldDuringFocus)?
    private var lastTick: LocalTime?
    /// The center's unread notifications per app; the daemon feeds it every event.
    public var unread = UnreadCounts()
    /// The rate limiter's tokens and the last sound, as the decisions leave them.
    private var ledger = DeliveryDecision.Ledger()
    private var threads = ThreadCooldowns()
    private var repeats = RepeatDetector()

    public init(settings: ChimeSettings = .init(), lastID: UInt32 = 0) {
        self.settings = settings
        server = NotificationServer(settings: settings.server, lastID: lastID)
    }

    /// How many notifications each rule matched since the config was read, by name.
    public private(set) var ruleMatches: [String: Int] = [:]

    public mutating func apply(_ newSettings: ChimeSettings, now: Now) -> [ServerEvent] {
        settings = newSettings
        ruleMatches = [:]
        server.settings = newSettings.server
        return refreshFocus(now: now)
    }

    // MARK: Notify

    /// `system`: who the sender is, as the system says; a sandboxed app is named by its sandbox,
    /// whatever desktop entry it claims.
    /// `given`: the id its app already holds, for a call chimed 0.1.0 answered and never handled.
    public mutating func notify(_ request: NotificationRequest, from sender: String, system: SenderIdentity? = nil,
                                now: Now, id given: UInt32? = nil) throws(RequestError) -> (id: UInt32, events: [ServerEvent]) {
        var events = refreshFocus(now: now)
        var request = request
        if let system, system.isSandboxed { request.name(by: system) }
        let identity = request.appIdentity
        var app = known(identity)
        if !app.registered {
            if apps.see(identity) { events.append(.appStateChanged) }
            app = known(identity)
        }
        let appSettings = app.settings
        let rules = rules(for: request, events: &events)
        for name in rules?.rules ?? [] { ruleMatches[name, default: 0] += 1 }
        let replacing = try server.replacementTarget(for: request, from: sender, identity: system)
        let thread = ThreadCooldowns.Key(request)
        let cooldown = appSettings.threadCooldown ?? settings.center.threadCooldown
        let cooling = replacing == nil ? threads.cooling(thread, now: now.monotonic, cooldown: cooldown).map { entry in
            let banner = server.notification(entry.banner).flatMap { $0.state == .presented ? $0 : nil }
            return ThreadCooldowns.Cooling(banner: banner?.id, bannerLevel: banner?.decision?.level)
        } : nil
        // An open notification it repeats: the same texts within the window, from a call that
        // could only make a new one.
        let window = settings.center.repeatWindow
        let texts = window > .zero ? RepeatDetector.Key(request) : nil
        let earlier = replacing == nil ? texts.flatMap { texts in
            repeats.earlier(texts, now: now.monotonic, window: window).flatMap(server.notification)
        }.flatMap { $0.showsTexts(of: request) ? $0 : nil } : nil
        var context = DeliveryDecision.Context(
            app: appSettings, rules: rules, globalPreviews: settings.previews, focus: activeFocusMode,
            locked: locked, muted: muted, budget: app.budget, wall: now.wall, replacing: replacing?.state,
            rateLimit: settings.center.rateLimit, now: now.monotonic, cooling: cooling,
            appFocused: desktop.isFocused(appIdentity: identity, system: system), repeats: earlier != nil,
            soundGap: settings.sounds.minimumGap, explainedTimeSensitive: apps.record(identity)?.explainedTimeSensitive ?? true,
            budgetPerHour: settings.timeSensitiveBudget)
        if !players.isEmpty { context.nowPlaying = players.nowPlaying(request, from: sender, system: system) }
        let decision = DeliveryDecision.decide(request, identity: identity, context: context, ledger: &ledger)
        if decision.offers.contains(where: { $0.offers(Offer.turnOffTimeSensitive) }) {
            apps.update(identity) { $0.explainedTimeSensitive = true }
            events.append(.appStateChanged)
        }
        if let change = decision.budgetChange {
            apps.count(change, for: identity)
            if change.crosses { events.append(.appStateChanged) }
        }
        if decision.drop != nil {
            let result = server.discard(request, from: sender, now: now.monotonic, id: given)
            return (result.id, events + result.events)
        }
        if let refusal = decision.refusal { throw .excessNotifications(refusal) }
        if case .limited(newly: true) = decision.rateLimited { events.append(.overRateLimit(app: identity)) }
        let repeating = decision.mergesIntoRepeat ? earlier?.id : nil
        let result = try server.notify(request, from: sender, identity: system, now: now.monotonic, wall: now.wall,
                                       decision: decision, replacing: .found(replacing), repeating: repeating, id: given)
        if let texts { repeats.note(texts, id: result.id, now: now.monotonic, window: window, capacity: server.settings.maximumOpen) }
        if cooldown > .zero, replacing == nil, decision.banner, !decision.feedback {
            if decision.quietInThread || repeating != nil {
                threads.tookOver(thread, id: result.id)
            } else {
                threads.interrupted(thread, id: result.id, at: now.monotonic, cooldown: cooldown)
            }
        }
        // Usually nothing came before: take the array rather than copy each event into another.
        if events.isEmpty { events = result.events } else { events += result.events }
        if decision.nowPlaying != nil { events += nowPlaying(result.id, of: identity) }
        // Most notifications play no sound, so the notification (a copy) is looked up only for one that does.
        if let choice = SoundChoice.choose(for: request, decision: decision, settings: settings.sounds),
           let notification = server.notification(result.id) {
            events.append(.playSound(notification, choice))
        }
        if case .focus = decision.hold {
            if let held = server.notification(result.id) { heldDuringFocus.note(held) }
        }
        if !decision.hooks.isEmpty, let notification = server.notification(result.id) {
            events += decision.hooks.map { .runHook(notification, $0) }
        }
        return (result.id, events)
    }

    mutating func settings(for identity: String) -> AppSettings { known(identity).settings }

    /// What the user's rules change for `request`; with no rules (most configs) nothing is matched.
    /// A rule whose pattern meets its match budget is turned off, and `events` say so.
    mutating func rules(for request: NotificationRequest, events: inout [ServerEvent]) -> RuleEffect? {
        if settings.rules.isEmpty { return nil }
        var overBudget: [String] = []
        let effect = RuleEffect.of(disabledRules.isEmpty ? settings.rules : settings.rules.filter { !disabledRules.contains($0.name) },
                                   on: request, overBudget: &overBudget)
        for rule in overBudget {
            disabledRules.insert(rule)
            events.append(.ruleTurnedOff(rule, app: request.appIdentity))
        }
        return effect
    }

    /// Rules turned off for now (`chimectl rule NAME disable`), by name, until chimed restarts.
    public private(set) var disabledRules: Set<String> = []

    /// Turns a rule of the config on or off until chimed restarts, as `dunstctl rule` does.
    public mutating func setRule(_ name: String, enabled: Bool) throws(RequestError) {
        guard settings.rules.contains(where: { $0.name == name }) else {
            throw .unknownName("no rule named '\(name)'; rules: " + settings.rules.map(\.name).joined(separator: ", "))
        }
        if enabled { disabledRules.remove(name) } else { disabledRules.insert(name) }
    }

    struct KnownApp {
        var settings: AppSettings
        /// In the registry; Notify adds an app that is not.
        var registered: Bool
        var budget: TimeSensitiveBudget
    }

    private mutating func known(_ identity: String) -> KnownApp {
        if let lastKnown, lastKnown.identity == identity { return lastKnown.app }
        let known = knownApps[identity] ?? {
            let record = apps.record(identity)
            let known = KnownApp(settings: apps.settings(for: identity, config: settings), registered: record != nil,
                                 budget: TimeSensitiveBudget(perHour: settings.timeSensitiveBudget, recent: record?.timeSensitiveTimes ?? [],
                                                             over: record?.overBudget ?? false, exempt: record?.budgetExempt ?? false))
            knownApps[identity] = known
            return known
        }()
        lastKnown = (identity, known)
        return known
    }

    private mutating func forgetKnownApps() {
        knownApps.removeAll()
        lastKnown = nil
    }

    // MARK: User actions

    /// Invokes an action; Chime's own actions change settings here instead of reaching an app.
    public mutating func invoke(_ id: UInt32, key: String, now: Now) throws(RequestError) -> [ServerEvent] {
        guard let notification = server.notification(id) else { throw .unknownNotification(id) }
        guard key.hasPrefix(Self.actionPrefix) else { return try server.invoke(id, key: key) }
        if notification.decision?.offers.contains(where: { $0.offers(key) }) == true { return take(key, of: notification) }
        guard notification.action(key) != nil else { throw .unknownAction(id, key) }
        let command = key.dropFirst(Self.actionPrefix.count)
        switch command.split(separator: ":", maxSplits: 1).first ?? "" {
        case "show-held":
            // Listed in a notification of Chime's own; the held ones are in the center.
            guard let lastHeld else { break }
            let listing = lastHeld.held.listing(focus: lastHeld.focus)
            return try server.dismiss(id) + own(summary: listing.summary, body: listing.body, actions: [], now: now)
        default: throw .unknownAction(id, key)
        }
        return try server.dismiss(id)
    }

    /// The person took what Chime offered with a notification: it is done for the app, and the
    /// notification, which stays as it was, offers it no more.
    private mutating func take(_ key: String, of notification: Notification) -> [ServerEvent] {
        let identity = notification.appIdentity
        var events: [ServerEvent] = []
        switch key {
        case Offer.keep: events = setOverride(identity, "authorization", "allowed")
        case Offer.turnOff: events = setOverride(identity, "authorization", "denied")
        case Offer.turnOffTimeSensitive: events = setOverride(identity, "time-sensitive", "false")
        case Offer.letTimeSensitiveThrough:
            apps.update(identity) {
                $0.overBudget = false
                $0.budgetExempt = true
            }
            events = [.appStateChanged]
        default: break
        }
        return events + server.withdrawOffers(of: notification.id)
    }

    /// A setting of an app's set by the person (`chimectl apps set`, an offer taken), kept in apps.state.
    @discardableResult
    public mutating func setOverride(_ identity: String, _ key: String, _ value: String) -> [ServerEvent] {
        apps.update(identity) { $0.overrides[key] = value }
        return [.appStateChanged]
    }

    /// `chimectl mute on|off`: kept in apps.state.
    public mutating func setMuted(_ muted: Bool?) -> [ServerEvent] {
        guard muted != muteOverride else { return [] }
        muteOverride = muted
        return [.appStateChanged]
    }

    // MARK: Focus

    /// The Focus in force now, from config.
    public var activeFocusMode: FocusMode? {
        currentFocus.flatMap { settings.focus(named: $0.name) }
    }

    public mutating func focusOn(_ name: String, until: Int64?, now: Now) throws(RequestError) -> [ServerEvent] {
        guard settings.focus(named: name) != nil else { throw .unknownName(unknownFocus(name)) }
        focus.turnOn(name, until: until)
        return refreshFocus(now: now)
    }

    public mutating func focusOff(now: Now) -> [ServerEvent] {
        focus.turnOff(modes: settings.focusModes, now: now)
        return refreshFocus(now: now)
    }

    public mutating func inhibit(focus name: String, owner: String, application: String, reason: String,
                                 now: Now) throws(RequestError) -> (cookie: UInt32, events: [ServerEvent]) {
        guard settings.focus(named: name) != nil else { throw .unknownName(unknownFocus(name)) }
        guard focus.inhibitors.count(where: { $0.owner == owner }) < Self.inhibitionsPerClient else {
            throw .limitReached("this connection holds \(Self.inhibitionsPerClient) inhibitions already; release one (UnInhibit) first")
        }
        let cookie = focus.inhibit(focus: name, owner: owner, application: application, reason: reason)
        return (cookie, refreshFocus(now: now))
    }

    /// Inhibitions one connection may hold: a screencast holds one, `chimectl focus inhibit` one.
    public static let inhibitionsPerClient = 16

    public mutating func uninhibit(_ cookie: UInt32, now: Now) throws(RequestError) -> [ServerEvent] {
        guard focus.uninhibit(cookie) else { throw .unknownName("no inhibitor with cookie \(cookie)") }
        return refreshFocus(now: now)
    }

    /// A client left the bus: its inhibitors end with it.
    public mutating func clientLeft(_ name: String, now: Now) -> [ServerEvent] {
        focus.release(owner: name)
        return refreshFocus(now: now)
    }

    func unknownFocus(_ name: String) -> String {
        "no Focus named '\(name)'; Focus modes: " + settings.focusModes.map(\.name).joined(separator: ", ")
    }

    /// Notices a Focus starting or ending; when one ends, says what it held.
    public mutating func refreshFocus(now: Now) -> [ServerEvent] {
        focus.tidy(modes: settings.focusModes, now: now)
        let active = focus.active(modes: settings.focusModes, now: now)
        guard active != currentFocus else { return [] }
        var events: [ServerEvent] = []
        let ended = currentFocus
        currentFocus = active
        events.append(.focusChanged(active?.name))
        if let ended, ended.name != active?.name {
            // What it held goes quietly to the center, and ends for its apps at their timeouts.
            events += server.release(server.held(by: ended.name), as: .quiet, now: now.monotonic)
            // Cleared when a Focus ends, not when one starts: at start-up what the active Focus
            // held before the restart (`resume`) still counts.
            let held = heldDuringFocus
            heldDuringFocus = HeldDuringFocus()
            if held.count > 0 {
                let (count, appCount) = (held.count, held.apps.count)
                lastHeld = (displayName(ended.name), held)
                // Decided under the Focus now on, if another is: it may hold the recap too.
                events += own(summary: tr("While {focus} was on", ["focus": displayName(ended.name)]),
                              body: trn("{n} notification", "{n} notifications", count) + " " + trn("from {n} app", "from {n} apps", appCount),
                              actions: [Action(key: Self.actionPrefix + "show-held", label: tr("Show"))], stays: false, now: now)
            }
        }
        return events + followPreviews()
    }

    /// The session was locked or unlocked: banners up hide or show their text as their previews
    /// setting says.
    public mutating func setLocked(_ locked: Bool) -> [ServerEvent] {
        guard locked != self.locked else { return [] }
        self.locked = locked
        return followPreviews()
    }

    /// Banners up show their text, or hide it, as the Focus and the lock now say: when sharing
    /// the screen ends, what is still on it shows its text again.
    private mutating func followPreviews() -> [ServerEvent] {
        let (locked, focus) = (locked, activeFocusMode)
        return server.followPreviews { notification in
            guard let decision = notification.decision else { return false }
            return DeliveryDecision.redacts(previews: decision.previews, hidesWhenLocked: decision.hidesWhenLocked, locked: locked, focus: focus)
        }
    }

    /// "dnd" reads as "Do Not Disturb", "sharing" as "Screen Sharing"; other names as the config
    /// spells them, capitalised.
    public func displayName(_ focus: String) -> String { FocusMode.displayName(focus) }

    /// `chimectl sharing on|off`: the screen is shared (a portal's hooks say so).
    public mutating func setSharing(_ on: Bool, now: Now) -> [ServerEvent] {
        focus.sharedByHand = on
        return refreshFocus(now: now)
    }

    /// The desktop changed: a fullscreen window with the focus turns the fullscreen Focus on,
    /// and its end presents what it held as one summary.
    public mutating func follow(_ context: DesktopContext, now: Now) -> [ServerEvent] {
        desktop = context
        focus.fullscreen = context.fullscreen
        return refreshFocus(now: now)
    }

    // MARK: Time passing

    /// Whether anything changes with the clock alone: a Focus schedule, a summary time, a Focus
    /// turned on until a time. While nothing does, the daemon need not wake each minute.
    public var followsTheClock: Bool {
        !settings.summaryTimes.isEmpty || settings.focusModes.contains { !$0.schedules.isEmpty }
            || focus.manualFocus?.until != nil
    }

    /// Called every minute while the clock matters (`followsTheClock`), and after the clock
    /// jumps: Focus schedules and summary times. The last tick of a stretch forgets its time, so
    /// a summary time added later is not taken as passed during the minutes nobody looked.
    public mutating func tick(now: Now) -> [ServerEvent] {
        var events = refreshFocus(now: now)
        if let last = lastTick, ScheduledSummary.isDue(times: settings.summaryTimes, from: last, to: now.local) {
            events += deliverSummary(now: now)
        }
        lastTick = followsTheClock ? now.local : nil
        return events
    }

    /// What the next summary holds, most relevant first.
    public var summaryQueue: [Notification] {
        ScheduledSummary.ordered(server.notifications.filter { $0.state == .heldForSummary })
    }

    /// Delivers the held notifications in one summary notification.
    public mutating func deliverSummary(now: Now) -> [ServerEvent] {
        let held = summaryQueue
        guard !held.isEmpty else { return [] }
        let text = ScheduledSummary.text(for: held)
        // Each delivered notification is stored again with its new state, then the summary shown.
        let delivered = server.release(held.map(\.id), as: .summarized, now: now.monotonic)
        return delivered + own(summary: text.summary, body: text.body, actions: [], category: ScheduledSummary.category, now: now)
    }

    // MARK: Chime's own notifications

    /// Chime's own notifications are the app `chime`'s, with settings of its own (`[app chime]`).
    public static let ownIdentity = "chime"

    /// A notification of Chime's own (a Focus's recap, the scheduled summary), decided as any
    /// app's: a Focus or a fullscreen window holds it like anything else. It makes no sound.
    /// `stays`: until the user answers (a question); by default when it asks one.
    private mutating func own(summary: String, body: String, actions: [Action], stays: Bool? = nil,
                              category: String? = nil, now: Now) -> [ServerEvent] {
        var hints = NotificationHints()
        hints.desktopEntry = Self.ownIdentity
        hints.category = category
        hints.resident = false
        hints.suppressSound = true
        let request = NotificationRequest(appName: "Chime", summary: summary, body: body, actions: actions,
                                          hints: hints, expireTimeout: (stays ?? !actions.isEmpty) ? 0 : -1)
        let decision = DeliveryDecision.decide(request, identity: Self.ownIdentity, context: .init(
            app: settings(for: Self.ownIdentity), globalPreviews: settings.previews, focus: activeFocusMode,
            locked: locked, muted: muted, now: now.monotonic))
        guard decision.drop == nil,
              let made = try? server.notify(request, from: Self.selfSender, now: now.monotonic, wall: now.wall, decision: decision) else { return [] }
        if case .focus = decision.hold, let held = server.notification(made.id) { heldDuringFocus.note(held) }
        return made.events
    }
}

extension Attention {
    /// The app's new "now playing" notification takes the place of its previous one: that one
    /// closes (reason 4) and leaves the center, so the center holds one per app, not one a track.
    mutating func nowPlaying(_ id: UInt32, of identity: String) -> [ServerEvent] {
        defer { nowPlayingIDs[identity] = id }
        guard let previous = nowPlayingIDs[identity], previous != id else { return [] }
        return server.supersede(previous) + [.deleted(previous)]
    }

    /// Notify calls refused once decided, because the center could not keep what they made (a
    /// full disk): each notification leaves the screen, the center and the unread counts, as if
    /// it never came.
    public mutating func refuse(_ ids: [UInt32]) -> [ServerEvent] {
        ids.flatMap { server.withdraw($0) + [.deleted($0)] }
    }
}
