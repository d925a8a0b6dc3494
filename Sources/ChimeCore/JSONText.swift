/// Writes BusValues as JSON text with keys in a stable order, one object per line.
public enum JSONText {
    public static func encode(_ value: BusValue) -> String {
        switch value.unwrapped {
        case .bool(let b): return b ? "true" : "false"
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .string(let s), .objectPath(let s), .signature(let s): return quote(s)
        case .bytes(let bytes): return "\"<\(bytes.count) bytes>\""
        case .array(_, let items), .structure(let items): return "[" + items.map(encode).joined(separator: ",") + "]"
        case .dictionary(_, _, let entries):
            return "{" + entries.map { entry in
                let key: String
                if case .string(let s) = entry.key { key = s } else { key = encode(entry.key) }
                return quote(key) + ":" + encode(entry.value)
            }.joined(separator: ",") + "}"
        case let other:
            if other == .structure([]) { return "null" }
            if let number = other.integer { return "\(number)" }
            if case .uint64(let n) = other { return "\(n)" }
            return "null"
        }
    }

    /// An object from ordered pairs.
    public static func object(_ pairs: [(String, BusValue)]) -> String { encode(.vardict(pairs)) }

    public static func quote(_ text: String) -> String {
        // Most text needs no escape: one pass over its bytes, then a single copy.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
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
        return out + "\""
    }
}
