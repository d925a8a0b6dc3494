/// Why a decision came out as it did (design section 22): short facts in order, each naming
/// the setting that made it, for `chimectl why`, `show` and the panel. Worked out from the
/// decision and the facts it took, never decided again here.
extension DeliveryDecision {
    /// What the person's setting or the app's request made of the notification, in order:
    /// its level, what dropped or held it, its banner, its sound, its preview, the center.
    static func reasons(_ decision: DeliveryDecision, request: NotificationRequest, identity: String, app: AppSettings,
                        context: Context, requested: InterruptionLevel, underHigher: Bool) -> [String] {
        let name = request.appName.isEmpty ? identity : request.appName
        var reasons = [levelReason(decision, request: request, name: name, app: app, context: context, requested: requested)]
        if context.onRequest { reasons.append("shown on request (chimectl restore, or a snooze that ended)") }
        if decision.feedback, decision.drop == nil {
            reasons.append(request.hints.userActionFeedback
                ? "feedback you caused (x-kde-user-action-feedback): shown at once, silent, not kept in the center"
                : "feedback you caused (a stack tag and a value): shown at once, silent, not kept in the center")
        }
        switch decision.drop {
        case .denied?: reasons.append("dropped: \(name) is turned off (authorization = denied)")
        case .marketing?: reasons.append("dropped: marketing, which \(name) may not send (marketing = false)")
        case nil: break
        }
        switch decision.hold {
        case .summary?: reasons.append("held for the scheduled summary: \(name) has delivery = summary")
        case .focus(let focus)? where focus == FocusMode.fullscreen: reasons.append("banner waited: a fullscreen window has the focus")
        case .focus(let focus)?: reasons.append("held: Focus \(FocusMode.displayName(focus)) does not allow \(name)")
        case nil: break
        }
        if decision.drop == nil, decision.hold == nil {
            reasons += bannerReasons(decision, name: name, app: app, context: context, underHigher: underHigher)
            if let reason = soundReason(decision, request: request, name: name, app: app, context: context) { reasons.append(reason) }
        }
        if decision.redacted {
            reasons.append(context.focus?.hidesPreviews == true
                ? "preview hidden: Focus \(FocusMode.displayName(context.focus!.name)) hides previews"
                : context.locked ? "preview hidden: the session is locked (previews = \(decision.previews.rawValue))"
                : "preview hidden: previews = \(decision.previews.rawValue)")
        }
        if decision.drop == nil, !decision.inCenter, !decision.feedback {
            reasons.append(request.hints.transient ? "not kept in the center: the app says it is transient"
                                                   : "not kept in the center: \(name) has show-in-center = false")
        }
        if decision.drop == nil, decision.hold == nil, decision.lifetime == .untilClosed {
            reasons.append("stays until closed: " + (decision.level == .critical ? "critical"
                : app.timeout == .never ? "\(name) has timeout = never"
                : request.hints.urgency == .critical ? "urgency critical" : "the app asks (expire_timeout 0)"))
        }
        return reasons
    }

    private static func levelReason(_ decision: DeliveryDecision, request: NotificationRequest, name: String, app: AppSettings,
                                    context: Context, requested: InterruptionLevel) -> String {
        let level = "level \(decision.level.rawValue)"
        if let rule = context.rules, rule.level != nil {
            return "\(level): set by rule \(rule.rules.last ?? "")"
        }
        if let track = decision.nowPlaying {
            return "\(level): now playing: it names \"\(track)\", the track its player plays (now-playing = true)"
        }
        if app.authorization == .provisional {
            return "\(level): \(name) is provisional, quiet until you choose Keep (authorization = provisional)"
        }
        if decision.budgetChange?.crosses == true || (requested == .timeSensitive && decision.level == .active && context.budget?.over == true) {
            return "\(level): over \(name)'s time-sensitive budget (\(context.budgetPerHour) an hour)"
        }
        if request.hints.marketing { return "\(level): marketing is never above passive" }
        if decision.level < requested {
            return decision.level == .timeSensitive
                ? "\(level): \(requested.rawValue) needs critical-alerts, which \(name) does not have"
                : "\(level): \(requested.rawValue) needs time-sensitive, which \(name) does not have"
        }
        if let explicit = request.hints.interruptionLevel, explicit == requested { return "\(level): the app asked for it (x-chime-interruption-level)" }
        if decision.level == .critical, InterruptionPolicy.criticalByUrgency(request) {
            return "\(level): urgency critical from \(name), which has critical-alerts"
        }
        if StayOnScreen.asks(request) { return "\(level): a browser's urgency critical asks only to stay on screen (requireInteraction)" }
        if let floor = InterruptionPolicy.floor(for: request.hints.category), floor == requested,
           floor > (request.hints.urgency.map(InterruptionPolicy.level(urgency:)) ?? .active) {
            return "\(level): category \(request.hints.category ?? "")"
        }
        return "\(level): urgency \((request.hints.urgency ?? .normal).name)"
    }

    private static func bannerReasons(_ decision: DeliveryDecision, name: String, app: AppSettings, context: Context,
                                      underHigher: Bool) -> [String] {
        if decision.feedback { return decision.banner ? [] : ["no banner: \(name) has banners = false"] }
        if decision.mergesIntoRepeat { return ["merged: it repeats an open notification's texts within the repeat window"] }
        if decision.rateLimited != .admitted { return ["quiet: over \(name)'s rate limit"] }
        if decision.inForeground { return ["quiet: \(name)'s window has the focus (quiet-when-focused)"] }
        if underHigher { return ["quiet: its thread's banner is of a higher level and keeps the screen"] }
        if decision.level == .passive { return ["no banner: passive"] }
        if !decision.banner { return ["no banner: \(name) has banners = false"] }
        if decision.takesOver != nil { return ["banner: updates its thread's banner, within the thread's cooldown"] }
        if context.replacing != nil { return ["banner: replaces one of \(name)'s in place"] }
        return []
    }

    private static func soundReason(_ decision: DeliveryDecision, request: NotificationRequest, name: String, app: AppSettings,
                                    context: Context) -> String? {
        guard !decision.sound, decision.level >= .active, decision.banner || decision.quietInThread else { return nil }
        if decision.mergesIntoRepeat || decision.feedback { return nil }
        if decision.quietInThread { return "no sound: its thread interrupted within its cooldown" }
        if !decision.interrupts { return "no sound: an update in place" }
        if request.hints.suppressSound { return "no sound: the app asked for none (suppress-sound)" }
        if decision.level != .critical, context.muted { return "no sound: sounds are muted" }
        if decision.level != .critical, !app.sounds { return "no sound: \(name) has sounds = false" }
        return "no sound: another played within [sounds] minimum-gap"
    }
}
