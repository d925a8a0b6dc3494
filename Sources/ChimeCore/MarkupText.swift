/// The text a sanitised body shows, without its markup: what rules match a body against.
/// Only the edge's sanitiser's output comes here, so the markup is known to be simple: tags
/// whose attribute values have no '>' in them (they are escaped), and the entities GLib's
/// `g_markup_escape_text` writes (the five named ones and numeric ones).
public enum MarkupText {
    public static func plain(_ markup: String) -> String {
        if !markup.containsByte(UInt8(ascii: "<"), or: UInt8(ascii: "&")) { return markup }
        var text = String.UnicodeScalarView()
        var rest = markup.unicodeScalars[...]
        while let scalar = rest.popFirst() {
            switch scalar {
            case "<":
                rest = rest.drop { $0 != ">" }.dropFirst()
            case "&":
                if let end = rest.prefix(10).firstIndex(of: ";"), let decoded = entity(String(rest[..<end])) {
                    text.append(decoded)
                    rest = rest[rest.index(after: end)...]
                } else {
                    text.append(scalar)
                }
            default:
                text.append(scalar)
            }
        }
        return String(text)
    }

    /// The character an entity's name (between '&' and ';') stands for.
    static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
