import ChimeCore
import ChimeDBus

/// `chimectl rules`: the config's rules as chimed read them, and how often each matched.
enum RuleCommands {
    static func rules(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        let rules = try ControlClient().records("ListRules")
        if json { print(JSONOutput.list(rules, order: ordered)); return }
        if rules.isEmpty { TextTable.printEmpty(tr("no rules: add [rule NAME] sections to the config (see chime.conf(5))")); return }
        var table = TextTable("NAME", "ENABLED", "MATCHED", "MATCHES", "CHANGES")
        for rule in rules {
            table.add([rule["name"]?.string ?? "", rule["enabled"]?.bool == false ? "no" : "yes", "\(rule["matched"]?.integer ?? 0)",
                       (rule["match"]?.strings ?? []).joined(separator: "; "), (rule["change"]?.strings ?? []).joined(separator: "; ")]
                .map { $0.withoutControlCharacters() })
        }
        table.print()
    }

    /// `chimectl rule NAME enable|disable|toggle`: until chimed restarts, as `dunstctl rule`.
    static func rule(_ arguments: inout Arguments) throws(CommandLineError) {
        guard let name = arguments.next() else { throw .usage(tr("rule needs a rule's name and enable, disable or toggle")) }
        let command = arguments.next()
        try arguments.done()
        let client = try ControlClient()
        let enabled: Bool
        switch command {
        case "enable": enabled = true
        case "disable": enabled = false
        case "toggle":
            let rule = try client.records("ListRules").first { $0["name"]?.string == name }
            enabled = rule?["enabled"]?.bool == false
        default: throw .usage(tr("rule {name} needs enable, disable or toggle", ["name": name]))
        }
        _ = try client.call("SetRuleEnabled", [.string(name), .bool(enabled)])
    }

    static func ordered(_ entries: [String: BusValue]) -> [(String, BusValue)] {
        ["name", "enabled", "matched", "match", "change"].compactMap { key in entries[key].map { (key, $0) } }
    }
}
