/// Durations as people type them: "45m", "1h30m", "90s", "2h", "1d".
public enum DurationText {
    /// A span that may be zero, which turns what it times off: "0", or a duration as `seconds`
    /// reads it.
    public static func span(_ text: String) -> Duration? {
        text == "0" ? .zero : seconds(text).map { .seconds($0) }
    }

    /// A span as `span` reads it back: "0", or whole seconds ("90s").
    public static func text(_ span: Duration) -> String {
        span == .zero ? "0" : "\(span.components.seconds)s"
    }

    public static func seconds(_ text: String) -> Int64? {
        var total: Int64 = 0
        var number = ""
        var sawUnit = false
        for character in text.lowercased() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int64(number) else { return nil }
            let unit: Int64
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit, total > 0, total <= 366 * 86_400 else { return nil }
        return total
    }
}
