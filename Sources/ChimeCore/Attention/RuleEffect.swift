/// What the user's rules change for one notification: each rule that matches applies in the
/// config's order, so for each setting the last rule that sets it wins (as mako's criteria do).
///
/// A rule's level is final. The app's permissions (critical alerts, time-sensitive) and its
/// time-sensitive budget are there to stop apps from asking for more than they should; a rule
/// is the user saying what a notification is, so neither clamps it. A rule does not change an
/// app's consent: a denied app stays denied, a provisional one quiet until kept.
public struct RuleEffect: Equatable, Sendable {
    /// The names of the rules that matched, in order.
    public var rules: [String] = []
    public var level: InterruptionLevel?
    public var settings: [String: String] = [:]
    /// The `exec` commands of the rules that matched, in order.
    public var hooks: [Hook] = []

    /// A rule's command, to run for a notification it matched.
    public struct Hook: Equatable, Sendable {
        public var rule: String
        public var command: String
    }

    /// The rules' effect on `request`, or nil when none matches.
    public static func of(_ rules: [NotificationRule], on request: NotificationRequest) -> RuleEffect? {
        var overBudget: [String] = []
        return of(rules, on: request, overBudget: &overBudget)
    }

    /// As `of`, and the names of the rules whose patterns met their budget on `request`: those
    /// are left out (they match nothing), and their owner turns them off.
    public static func of(_ rules: [NotificationRule], on request: NotificationRequest, overBudget: inout [String]) -> RuleEffect? {
        var effect: RuleEffect?
        var bodyText: String?  // worked out once, and only if a rule looks at the body
        for rule in rules {
            guard let matches = rule.matches(request, bodyText: &bodyText) else {
                overBudget.append(rule.name)
                continue
            }
            guard matches else { continue }
            var matched = effect ?? RuleEffect()
            matched.rules.append(rule.name)
            if let level = rule.level { matched.level = level }
            matched.settings.merge(rule.settings) { _, later in later }
            if let command = rule.exec { matched.hooks.append(Hook(rule: rule.name, command: command)) }
            effect = matched
        }
        return effect
    }

    /// The app's settings with the rules' over them.
    public func applied(to app: AppSettings) -> AppSettings {
        var app = app
        // Checked when the config was read, so none fails here.
        for (key, value) in settings { _ = app.set(key, to: value) }
        return app
    }
}
