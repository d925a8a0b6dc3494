/// The interruption level of a notification, per chimed(1)'s attention model: the explicit hint,
/// else urgency; categories raise the floor; the app's permissions clamp it; marketing
/// is never above passive.
public enum InterruptionPolicy {
    /// Categories that raise the level to at least the given one.
    static func floor(for category: String?) -> InterruptionLevel? {
        guard let category else { return nil }
        if category.isCategory(in: "cellbroadcast")
            || category == "weather.warning.extreme" || category == "weather.warning-extreme" {
            return .critical
        }
        if category == "call.incoming" || category == "alarm.ringing" { return .timeSensitive }
        return nil
    }

    static func level(urgency: Urgency) -> InterruptionLevel {
        switch urgency {
        case .low: .passive
        case .normal: .active
        case .critical: .timeSensitive
        }
    }

    /// The level the sender asked for, before permissions.
    public static func requestedLevel(_ request: NotificationRequest) -> InterruptionLevel {
        if let explicit = request.hints.interruptionLevel { return explicit }
        let byUrgency = StayOnScreen.asks(request) ? .active : level(urgency: request.hints.urgency ?? .normal)
        guard let floor = floor(for: request.hints.category) else { return byUrgency }
        return max(byUrgency, floor)
    }

    /// The level after the app's permissions: urgency critical is critical from an app granted
    /// critical-alerts (a battery or backup tool the person trusts); critical needs
    /// critical-alerts, time-sensitive needs time-sensitive, marketing is at most passive.
    public static func level(_ request: NotificationRequest, app: AppSettings) -> InterruptionLevel {
        var level = requestedLevel(request)
        if app.criticalAlerts, criticalByUrgency(request) { level = .critical }
        if level == .critical, !app.criticalAlerts { level = .timeSensitive }
        if level == .timeSensitive, !app.timeSensitive { level = .active }
        if request.hints.marketing { level = .passive }
        return level
    }

    /// Urgency critical, with no level of Chime's asked and not a browser's "stay on screen".
    static func criticalByUrgency(_ request: NotificationRequest) -> Bool {
        request.hints.urgency == .critical && request.hints.interruptionLevel == nil && !StayOnScreen.asks(request)
    }

    /// `im.*` and `call.*` notifications come from a person.
    public static func isCommunication(_ request: NotificationRequest) -> Bool {
        guard let category = request.hints.category else { return false }
        return category.isCategory(in: "im") || category.isCategory(in: "call")
    }

    /// The person a communication notification is from: `x-chime-sender`, else the summary.
    public static func person(_ request: NotificationRequest) -> String? {
        guard isCommunication(request) else { return nil }
        if let sender = request.hints.sender, !sender.isEmpty { return sender }
        return request.summary
    }
}
