/// What a config would have done (design section 23): the notifications the center kept, each
/// decided again from the facts its decision took (`DecisionFacts`) under `settings`, counted per
/// app as they came and as they would come, with those whose outcome would change. Under the
/// config in force it gives back what happened: nothing outside the decision decides.
public enum Replay {
    /// A notification as the center kept it, with its decision's facts and reasons.
    public struct Entry: Sendable {
        public var notification: Notification
        public var facts: DecisionFacts
        public var reasons: [Reason]

        public init(notification: Notification, facts: DecisionFacts, reasons: [Reason]) {
            self.notification = notification
            self.facts = facts
            self.reasons = reasons
        }
    }

    /// What reached the person, or would have.
    public struct Figures: Equatable, Sendable {
        public var banners = 0, sounds = 0, held = 0, summarized = 0

        mutating func count(banner: Bool, sound: Bool, hold: String?) {
            if banner, hold == nil { banners += 1 }
            if sound { sounds += 1 }
            if hold == "summary" { summarized += 1 } else if hold != nil { held += 1 }
        }
    }

    public struct App: Equatable, Sendable {
        public var identity: String
        public var name: String
        public var was = Figures()
        public var would = Figures()
    }

    public struct Change: Equatable, Sendable {
        public var id: UInt32
        public var appName: String
        public var summary: String
        public var was: [Reason]
        public var would: [Reason]
    }

    public static func run(_ entries: [Entry], settings: ChimeSettings, apps registry: AppRegistry) -> (apps: [App], changes: [Change]) {
        var apps: [App] = []
        var index: [String: Int] = [:]
        var changes: [Change] = []
        for entry in entries {
            let decision = decide(entry, settings: settings, apps: registry)
            let identity = entry.notification.appIdentity
            if index[identity] == nil {
                index[identity] = apps.count
                apps.append(App(identity: identity, name: entry.notification.request.appName))
            }
            let facts = entry.facts
            apps[index[identity]!].was.count(banner: facts.banner, sound: facts.sound, hold: facts.hold)
            apps[index[identity]!].would.count(banner: decision.banner, sound: decision.sound, hold: decision.facts.hold)
            if (decision.level, decision.banner, decision.sound, decision.facts.hold) != (facts.level, facts.banner, facts.sound, facts.hold) {
                changes.append(Change(id: entry.notification.id, appName: entry.notification.request.appName,
                                      summary: entry.notification.request.summary, was: entry.reasons, would: decision.reasons))
            }
        }
        return (apps, changes)
    }

    /// One kept notification decided again: as its app sent it (the level it asked for, not the
    /// one the center kept), under `settings` and the apps' settings now.
    static func decide(_ entry: Entry, settings: ChimeSettings, apps: AppRegistry) -> DeliveryDecision {
        var request = entry.notification.request
        request.hints.interruptionLevel = entry.facts.asked
        let identity = entry.notification.appIdentity
        let app = apps.settings(for: identity, config: settings)
        let rules = settings.rules.isEmpty ? nil : RuleEffect.of(settings.rules, on: request)
        let context = entry.facts.context(for: request, identity: identity, app: app, rules: rules, settings: settings,
                                          wall: entry.notification.arrived)
        var ledger = DeliveryDecision.Ledger(replaying: entry.facts)
        return DeliveryDecision.decide(request, identity: identity, context: context, ledger: &ledger)
    }
}
