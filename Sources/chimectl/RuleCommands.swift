import ChimeCore
import ChimeDBus

/// `chimectl rules`: the config's rules as chimed read them, and how often each matched.
enum RuleCommands {
    static func rules(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        let rules = try ControlClient().records("ListRules")
        if json { print(JSONOutput.list(rules, order: ordered)); return }
        if rules.isEmpty { TextTable.printEmpty("no rules: add [rule NAME] sections to the config (see the README)"); return }
        var table = TextTable("NAME", "MATCHED", "MATCHES", "CHANGES")
        for rule in rules {
            table.add([rule["name"]?.string ?? "", "\(rule["matched"]?.integer ?? 0)",
                       (rule["match"]?.strings ?? []).joined(separator: "; "), (rule["change"]?.strings ?? []).joined(separator: "; ")]
                .map { $0.withoutControlCharacters() })
        }
        table.print()
    }

    static func ordered(_ entries: [String: BusValue]) -> [(String, BusValue)] {
        ["name", "matched", "match", "change"].compactMap { key in entries[key].map { (key, $0) } }
    }
}
