/// Writes BusValues as JSON text with keys in a stable order, one object per line.
public enum JSONText {
    public static func encode(_ value: BusValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// Appends to one string, rather than building each element as a string of its own and
    /// joining them.
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

    /// `["a","b"]`, written straight from the strings as bytes.
    public static func stringArray(_ strings: [String]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        out.append(UInt8(ascii: "["))
        for (index, text) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            quote(text, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// An object from ordered pairs.
    public static func object(_ pairs: [(String, BusValue)]) -> String { encode(.vardict(pairs)) }

    static func quote(_ text: String, to out: inout String) {
        var bytes: [UInt8] = []
        quote(text, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Escapes byte by byte: every byte JSON escapes is ASCII, and no byte of a longer UTF-8
    /// sequence is, so the rest are copied as they are.
    static func quote(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        text.withUTF8Bytes { bytes in
            // Most text needs no escape: one pass over its bytes, then a single copy.
            guard bytes.contains(where: needsEscape) else { return out.append(contentsOf: bytes) }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                            hex[Int(byte >> 4)], hex[Int(byte & 0xf)]]
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
