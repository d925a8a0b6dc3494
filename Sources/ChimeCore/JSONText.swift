/// Writes BusValues as JSON text with keys in a stable order, one object per line.
public enum JSONText {
    public static func encode(_ value: BusValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// Appends to one string: building each element as a string of its own and joining them
    /// cost the store several thousand instructions for a notification's four action strings.
    static func write(_ value: BusValue, to out: inout String) {
        switch value.unwrapped {
        case .bool(let b): out += b ? "true" : "false"
        case .double(let d): out += d.isFinite ? "\(d)" : "null"
        case .string(let s), .objectPath(let s), .signature(let s): quote(s, to: &out)
        case .bytes(let bytes): out += "\"<\(bytes.count) bytes>\""
        case .array(_, let items), .structure(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .dictionary(_, _, let entries):
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += "," }
                if case .string(let key) = entry.key { quote(key, to: &out) } else { quote(encode(entry.key), to: &out) }
                out += ":"
                write(entry.value, to: &out)
            }
            out += "}"
        case let other:
            if let number = other.integer {
                out += "\(number)"
            } else if case .uint64(let n) = other {
                out += "\(n)"
            } else {
                out += "null"
            }
        }
    }

    /// `["a","b"]`, written straight from the strings.
    public static func stringArray(_ strings: [String]) -> String {
        var out = "["
        out.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, text) in strings.enumerated() {
            if index > 0 { out += "," }
            quote(text, to: &out)
        }
        return out + "]"
    }

    /// An object from ordered pairs.
    public static func object(_ pairs: [(String, BusValue)]) -> String { encode(.vardict(pairs)) }

    public static func quote(_ text: String) -> String {
        var out = ""
        quote(text, to: &out)
        return out
    }

    static func quote(_ text: String, to out: inout String) {
        // Most text needs no escape: one pass over its bytes, then a single copy.
        if !text.containsByte(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += "\""
            out += text
            out += "\""
            return
        }
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
