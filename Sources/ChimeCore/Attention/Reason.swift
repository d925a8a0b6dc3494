/// One reason a decision gives (design section 22): its message in English, as `tr` takes it,
/// and the values it names. It is said in the person's language only when shown (`text`), so
/// a Notify builds no sentence, and `chimectl why` speaks the language chimed runs in now,
/// whichever it ran in when the notification came.
public struct Reason: Hashable, Sendable {
    /// The English message, with `{name}` placeholders.
    public let message: String
    public let values: [String: String]

    /// `message` goes into po/chime.pot, as `tr`'s does (scripts/extract-messages).
    public init(_ message: String, _ values: [String: any CustomStringConvertible] = [:]) {
        self.message = message
        self.values = values.mapValues(\.description)
    }

    /// In the person's language. A level reason's `{level}` is itself a message ("level passive").
    public var text: String {
        guard let level = values["level"] else { return tr(message, values) }
        return tr(message, values.merging(["level": tr("level {level}", ["level": level])]) { _, said in said })
    }

    /// What held it or kept it quiet: the reason the panel shows on it (its level goes without saying).
    public var explainsQuiet: Bool {
        ["held", "banner waited", "quiet", "merged"].contains { message.hasPrefix($0) }
    }
}

extension Reason {
    /// Kept in the center's `reasons` column: a line each, the message and then each value by
    /// name, apart by U+001F. A value's control characters become spaces (a name with a line
    /// break would split its reason).
    public static func kept(_ reasons: [Reason]) -> String {
        var text = ""
        for (index, reason) in reasons.enumerated() {
            if index > 0 { text += "\n" }
            text += reason.message
            for (name, value) in reason.values.sorted(by: { $0.key < $1.key }) {
                text += "\u{1F}"
                text += name
                text += "\u{1F}"
                text += oneLine(value)
            }
        }
        return text
    }

    private static func oneLine(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return value }
        return String(value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    }

    /// What `kept` wrote. A line an older chimed wrote (a sentence, already said) stays as it is.
    public static func read(_ text: String) -> [Reason] {
        text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            var values: [String: String] = [:]
            for index in stride(from: 1, to: fields.count - 1, by: 2) { values[fields[index]] = fields[index + 1] }
            return Reason(message: fields[0], values: values)
        }
    }

    private init(message: String, values: [String: String]) {
        (self.message, self.values) = (message, values)
    }
}

extension Reason {
    /// A record's `reasons`, said, and its `shown-reason`, the one the panel shows on it.
    public static func fields(_ reasons: [Reason]) -> [(String, BusValue)] {
        guard !reasons.isEmpty else { return [] }
        let said = reasons.map(\.text)
        var fields: [(String, BusValue)] = [("reasons", .stringArray(said))]
        if let shown = reasons.firstIndex(where: \.explainsQuiet) { fields.append(("shown-reason", .string(said[shown]))) }
        return fields
    }
}
