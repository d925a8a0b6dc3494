import ChimeCore
import ChimeDBus

/// ListRules on dev.chime.Chime1: the config's rules as chimed holds them, and how often each
/// matched, so a rule that never fires can be told from one that was never read.
extension Daemon {
    func ruleHandlers() -> [String: ExportedInterface.Handler] {
        [
            "ListRules": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", attention.settings.rules.map(ruleRecord))]
            },
        ]
    }

    private func ruleRecord(_ rule: NotificationRule) -> BusValue {
        let match = rule.criteria.map { "\($0.field.key)=\($0.pattern.source)" }
            + (rule.urgency.map { ["match-urgency=\($0.name)"] } ?? [])
        let change = (rule.level.map { ["level=\($0.rawValue)"] } ?? [])
            + NotificationRule.settingKeys.compactMap { key in rule.settings[key].map { "\(key)=\($0)" } }
        return .vardict([("name", .string(rule.name)), ("match", .stringArray(match)), ("change", .stringArray(change)),
                         ("matched", .uint32(UInt32(clamping: attention.ruleMatches[rule.name] ?? 0)))])
    }
}
