/// Chime's own words in the person's language (design section 24). The core says them in
/// English through `tr` and `trn`; each program hands in gettext once at start
/// (`Translation.install`, in ChimeGLib), before any other thread runs. Without it, and for
/// what a catalogue lacks, the English stands. Placeholders are named (`{app}`), so a language
/// may put them in its own order.
public enum Language {
    nonisolated(unsafe) public static var lookup: (@Sendable (String) -> String)?
    nonisolated(unsafe) public static var pluralLookup: (@Sendable (String, String, Int) -> String)?
}

/// `message` in the person's language, its `{name}` placeholders filled from `values`.
public func tr(_ message: String, _ values: [String: any CustomStringConvertible] = [:]) -> String {
    fill(Language.lookup?(message) ?? message, values)
}

/// The form of `singular` or `plural` that `count` takes in the person's language; `{n}` is the
/// count.
public func trn(_ singular: String, _ plural: String, _ count: Int, _ values: [String: any CustomStringConvertible] = [:]) -> String {
    let form = Language.pluralLookup?(singular, plural, count) ?? (count == 1 ? singular : plural)
    return fill(form, values.merging(["n": count]) { given, _ in given })
}

private func fill(_ text: String, _ values: [String: any CustomStringConvertible]) -> String {
    guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
    var out = ""
    var rest = text[...]
    while let open = rest.firstIndex(of: "{") {
        out += rest[..<open]
        guard let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])] else {
            out.append("{")
            rest = rest[rest.index(after: open)...]
            continue
        }
        out += value.description
        rest = rest[rest.index(after: close)...]
    }
    return out + rest
}
