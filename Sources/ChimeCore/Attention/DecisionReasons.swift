/// Why a decision came out as it did (design section 22): short facts in order, each naming
/// the setting that made it, for `chimectl why`, `show` and the panel, said only when shown
/// (`Reason`). Worked out from the decision and the facts it took, never decided again here.
extension DeliveryDecision {
    /// What the person's setting or the app's request made of the notification, in order:
    /// its level, what dropped or held it, its banner, its sound, its preview, the center.
    static func reasons(_ decision: DeliveryDecision, request: NotificationRequest, identity: String, app: AppSettings,
                        context: Context, requested: InterruptionLevel, underHigher: Bool) -> [Reason] {
        let name = request.appName.isEmpty ? identity : request.appName
        var reasons = [levelReason(decision, request: request, name: name, app: app, context: context, requested: requested)]
        if context.onRequest { reasons.append(Reason("shown on request (chimectl restore, or a snooze that ended)")) }
        if decision.feedback, decision.drop == nil {
            reasons.append(request.hints.userActionFeedback
                ? Reason("feedback you caused (x-kde-user-action-feedback): shown at once, silent, not kept in the center")
                : Reason("feedback you caused (a stack tag and a value): shown at once, silent, not kept in the center"))
        }
        switch decision.drop {
        case .denied?: reasons.append(Reason("dropped: {name} is turned off (authorization = denied)", ["name": name]))
        case .marketing?: reasons.append(Reason("dropped: marketing, which {name} may not send (marketing = false)", ["name": name]))
        case nil: break
        }
        switch decision.hold {
        case .summary?: reasons.append(Reason("held for the scheduled summary: {name} has delivery = summary", ["name": name]))
        case .focus(let focus)? where focus == FocusMode.fullscreen: reasons.append(Reason("banner waited: a fullscreen window has the focus"))
        case .focus(let focus)?: reasons.append(Reason("held: Focus {focus} does not allow {name}", ["focus": FocusMode.displayName(focus), "name": name]))
        case nil: break
        }
        if decision.drop == nil, decision.hold == nil {
            reasons += bannerReasons(decision, name: name, app: app, context: context, underHigher: underHigher)
            if let reason = soundReason(decision, request: request, name: name, app: app, context: context) { reasons.append(reason) }
        }
        if decision.redacted {
            reasons.append(context.focus?.hidesPreviews == true
                ? Reason("preview hidden: Focus {focus} hides previews", ["focus": FocusMode.displayName(context.focus!.name)])
                : context.locked ? Reason("preview hidden: the session is locked (previews = {previews})", ["previews": decision.previews.rawValue])
                : Reason("preview hidden: previews = {previews}", ["previews": decision.previews.rawValue]))
        }
        if decision.drop == nil, !decision.inCenter, !decision.feedback {
            reasons.append(request.hints.transient ? Reason("not kept in the center: the app says it is transient")
                                                   : Reason("not kept in the center: {name} has show-in-center = false", ["name": name]))
        }
        if decision.drop == nil, decision.hold == nil, decision.lifetime == .untilClosed {
            reasons.append(decision.level == .critical ? Reason("stays until closed: critical")
                : app.timeout == .never ? Reason("stays until closed: {name} has timeout = never", ["name": name])
                : request.hints.urgency == .critical ? Reason("stays until closed: urgency critical")
                : Reason("stays until closed: the app asks (expire_timeout 0)"))
        }
        return reasons
    }

    private static func levelReason(_ decision: DeliveryDecision, request: NotificationRequest, name: String, app: AppSettings,
                                    context: Context, requested: InterruptionLevel) -> Reason {
        let level = decision.level.rawValue
        if let rule = context.rules, rule.level != nil {
            return Reason("{level}: set by rule {rule}", ["level": level, "rule": rule.rules.last ?? ""])
        }
        if let track = decision.nowPlaying {
            return Reason("{level}: now playing: it names \"{track}\", the track its player plays (now-playing = true)", ["level": level, "track": track])
        }
        if app.authorization == .provisional {
            return Reason("{level}: {name} is provisional, quiet until you choose Keep (authorization = provisional)", ["level": level, "name": name])
        }
        if decision.budgetChange?.crosses == true || (requested == .timeSensitive && decision.level == .active && context.budget?.over == true) {
            return Reason("{level}: over {name}'s time-sensitive budget ({n} an hour)", ["level": level, "name": name, "n": context.budgetPerHour])
        }
        if request.hints.marketing { return Reason("{level}: marketing is never above passive", ["level": level]) }
        if decision.level < requested {
            return decision.level == .timeSensitive
                ? Reason("{level}: {requested} needs critical-alerts, which {name} does not have", ["level": level, "requested": requested.rawValue, "name": name])
                : Reason("{level}: {requested} needs time-sensitive, which {name} does not have", ["level": level, "requested": requested.rawValue, "name": name])
        }
        if let explicit = request.hints.interruptionLevel, explicit == requested { return Reason("{level}: the app asked for it (x-chime-interruption-level)", ["level": level]) }
        if decision.level == .critical, InterruptionPolicy.criticalByUrgency(request) {
            return Reason("{level}: urgency critical from {name}, which has critical-alerts", ["level": level, "name": name])
        }
        if StayOnScreen.asks(request) { return Reason("{level}: a browser's urgency critical asks only to stay on screen (requireInteraction)", ["level": level]) }
        if let floor = InterruptionPolicy.floor(for: request.hints.category), floor == requested,
           floor > (request.hints.urgency.map(InterruptionPolicy.level(urgency:)) ?? .active) {
            return Reason("{level}: category {category}", ["level": level, "category": request.hints.category ?? ""])
        }
        return Reason("{level}: urgency {urgency}", ["level": level, "urgency": (request.hints.urgency ?? .normal).name])
    }

    private static func bannerReasons(_ decision: DeliveryDecision, name: String, app: AppSettings, context: Context,
                                      underHigher: Bool) -> [Reason] {
        if decision.feedback { return decision.banner ? [] : [Reason("no banner: {name} has banners = false", ["name": name])] }
        if decision.mergesIntoRepeat { return [Reason("merged: it repeats an open notification's texts within the repeat window")] }
        if decision.rateLimited != .admitted { return [Reason("quiet: over {name}'s rate limit", ["name": name])] }
        if decision.inForeground { return [Reason("quiet: {name}'s window has the focus (quiet-when-focused)", ["name": name])] }
        if underHigher { return [Reason("quiet: its thread's banner is of a higher level and keeps the screen")] }
        if decision.level == .passive { return [Reason("no banner: passive")] }
        if !decision.banner { return [Reason("no banner: {name} has banners = false", ["name": name])] }
        if decision.takesOver != nil { return [Reason("banner: updates its thread's banner, within the thread's cooldown")] }
        if context.replacing != nil { return [Reason("banner: replaces one of {name}'s in place", ["name": name])] }
        return []
    }

    private static func soundReason(_ decision: DeliveryDecision, request: NotificationRequest, name: String, app: AppSettings,
                                    context: Context) -> Reason? {
        guard !decision.sound, decision.level >= .active, decision.banner || decision.quietInThread else { return nil }
        if decision.mergesIntoRepeat || decision.feedback { return nil }
        if decision.quietInThread { return Reason("no sound: its thread interrupted within its cooldown") }
        if !decision.interrupts { return Reason("no sound: an update in place") }
        if request.hints.suppressSound { return Reason("no sound: the app asked for none (suppress-sound)") }
        if decision.level != .critical, context.muted { return Reason("no sound: sounds are muted") }
        if decision.level != .critical, !app.sounds { return Reason("no sound: {name} has sounds = false", ["name": name]) }
        return Reason("no sound: another played within [sounds] minimum-gap")
    }
}
