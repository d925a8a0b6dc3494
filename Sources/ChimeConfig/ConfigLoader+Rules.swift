import ChimeCore
import ChimeGLib

/// GLib's regular expressions are the patterns rules match with.
extension Regex: TextPattern {}

/// `[rule NAME]` sections: what a rule matches and what it changes (see NotificationRule).
extension ConfigLoader {
    func readRule(_ name: String, group: String, from file: KeyFile, sections: Sections,
                  _ value: (String) -> String?, _ fail: (String, String) -> Problem) throws(Problem) -> NotificationRule {
        var rule = NotificationRule(name: name)
        for field in NotificationRule.Field.allCases {
            // As written: GKeyFile's unescaping would refuse a pattern's `\d` or `\.`.
            guard let source = file.rawValue(group, field.key)?.trimmingWhitespace else { continue }
            guard !source.isEmpty else { throw fail(field.key, "the pattern is empty; leave the key out instead") }
            switch Regex.compile(source) {
            case .success(let regex): rule.criteria.append(.init(field, regex))
            case .failure(let error): throw fail(field.key, error.message)  // GLib's names the pattern and the place
            }
        }
        if let text = value("match-urgency") {
            guard let urgency = Urgency.allCases.first(where: { $0.name == text.lowercased() }) else {
                throw fail("match-urgency", "'\(text)' is not one of: low, normal, critical")
            }
            rule.urgency = urgency
        }
        if let text = value("level") {
            guard let level = InterruptionLevel(rawValue: text.lowercased()) else {
                throw fail("level", "'\(text)' is not one of: " + InterruptionLevel.allCases.map(\.rawValue).joined(separator: ", "))
            }
            rule.level = level
        }
        var scratch = AppSettings()
        for key in NotificationRule.settingKeys {
            guard let text = value(key) else { continue }
            if let problem = scratch.set(key, to: text) { throw fail(key, problem) }
            rule.settings[key] = text
        }
        // As written, as a shell reads it: GKeyFile's unescaping would eat its backslashes.
        if let command = file.rawValue(group, "exec")?.trimmingWhitespace {
            guard !command.isEmpty else { throw fail("exec", "the command is empty; leave the key out instead") }
            rule.exec = command
        }
        guard !rule.criteria.isEmpty || rule.urgency != nil else {
            throw sectionProblem(group, sections: sections, "matches every notification, and is left out; give it one of: "
                                 + (NotificationRule.Field.allCases.map(\.key) + ["match-urgency"]).joined(separator: ", "))
        }
        guard rule.level != nil || !rule.settings.isEmpty || rule.exec != nil else {
            throw sectionProblem(group, sections: sections, "changes nothing, and is left out; give it one of: "
                                 + (["level"] + NotificationRule.settingKeys + ["exec"]).joined(separator: ", "))
        }
        return rule
    }
}
