import ChimeCore
import ChimeDBus

/// ListRules and SetRuleEnabled on dev.chime.Chime1: the config's rules as chimed holds them,
/// how often each matched (a rule that never fires can be told from one that was never read),
/// and turning one off or on until chimed restarts.
extension ControlInterface {
    func ruleHandlers() -> [String: ExportedInterface.Handler] {
        [
            "ListRules": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", core.attention.settings.rules.map(ruleRecord))]
            },
            "SetRuleEnabled": { [unowned self] call throws(BusError) in
                guard case .string(let name) = call.arguments[0], case .bool(let enabled) = call.arguments[1] else { return [] }
                do throws(RequestError) { try core.attention.setRule(name, enabled: enabled) } catch { throw BusError(error) }
                return []
            },
        ]
    }

    private func ruleRecord(_ rule: NotificationRule) -> BusValue {
        let match = rule.criteria.map { "\($0.field.key)=\($0.pattern.source)" }
            + (rule.urgency.map { ["match-urgency=\($0.name)"] } ?? [])
        let change = (rule.level.map { ["level=\($0.rawValue)"] } ?? [])
            + NotificationRule.settingKeys.compactMap { key in rule.settings[key].map { "\(key)=\($0)" } }
            + (rule.exec.map { ["exec=\($0)"] } ?? [])
        return .vardict([("name", .string(rule.name)), ("match", .stringArray(match)), ("change", .stringArray(change)),
                         ("matched", .uint32(UInt32(clamping: core.attention.ruleMatches[rule.name] ?? 0))),
                         ("enabled", .bool(!core.attention.disabledRules.contains(rule.name)))])
    }
}
