/// A value of the D-Bus type system, decoded from a message at the edge.
/// The core reads hints from these without knowing anything of libdbus.
///
/// Only a variant holds another value directly, so only it is boxed: with the whole enum
/// indirect, every value (each hint, each reply's id) was a heap allocation of its own.
public enum BusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`, kept as bytes: image data arrives this way and must not become 16,000 enum cases.
    case bytes([UInt8])
    /// Any other array; the element signature is kept so an empty array can be written back.
    case array(elementSignature: String, [BusValue])
    /// `a{..}`: entries in wire order.
    case dictionary(keySignature: String, valueSignature: String, [(key: BusValue, value: BusValue)])
    case structure([BusValue])
    indirect case variant(BusValue)
    /// `h`: the index of a file descriptor in the message's list; the descriptor itself is taken
    /// from the message (`Message.fileDescriptor(at:)`), by whoever accepts one.
    case unixFD(UInt32)

    public static func == (lhs: BusValue, rhs: BusValue) -> Bool {
        switch (lhs, rhs) {
        case let (.dictionary(lk, lv, le), .dictionary(rk, rv, re)):
            return lk == rk && lv == rv && le.count == re.count
                && zip(le, re).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.byte(l), .byte(r)): return l == r
        case let (.bool(l), .bool(r)): return l == r
        case let (.int16(l), .int16(r)): return l == r
        case let (.uint16(l), .uint16(r)): return l == r
        case let (.int32(l), .int32(r)): return l == r
        case let (.uint32(l), .uint32(r)): return l == r
        case let (.int64(l), .int64(r)): return l == r
        case let (.uint64(l), .uint64(r)): return l == r
        case let (.double(l), .double(r)): return l == r
        case let (.string(l), .string(r)), let (.objectPath(l), .objectPath(r)),
             let (.signature(l), .signature(r)): return l == r
        case let (.bytes(l), .bytes(r)): return l == r
        case let (.array(ls, l), .array(rs, r)): return ls == rs && l == r
        case let (.structure(l), .structure(r)): return l == r
        case let (.variant(l), .variant(r)): return l == r
        case let (.unixFD(l), .unixFD(r)): return l == r
        default: return false
        }
    }

    /// The D-Bus signature of this value.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// The value inside any number of variant wrappers.
    public var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    // The scalar accessors look inside a variant themselves: going through `unwrapped` copied the
    // value (a call and a retain) for every hint read, and hints come unwrapped nearly always.

    /// Any integer type as an Int64, for hints that clients send with varying widths.
    public var integer: Int64? {
        switch self {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        case .variant(let inner): inner.integer
        default: nil
        }
    }

    public var string: String? {
        switch self {
        case .string(let s): s
        case .variant(let inner): inner.string
        default: nil
        }
    }

    public var bool: Bool? {
        switch self {
        case .bool(let b): b
        case .variant(let inner): inner.bool
        default: nil
        }
    }

    public var uint32: UInt32? {
        switch self {
        case .uint32(let v): v
        case .variant(let inner): inner.uint32
        default: nil
        }
    }

    /// `au`, as Swift numbers.
    public var uint32Array: [UInt32] {
        guard case .array("u", let items) = unwrapped else { return [] }
        return items.compactMap(\.uint32)
    }

    public var double: Double? {
        switch self {
        case .double(let d): d
        case .variant(let inner): inner.double
        default: nil
        }
    }

    /// `ad`, as Swift numbers; empty for anything else.
    public var doubles: [Double] {
        guard case .array("d", let items) = unwrapped else { return [] }
        return items.compactMap(\.double)
    }

    /// `as`, as Swift strings.
    public var strings: [String]? {
        guard case .array("s", let items) = unwrapped else { return nil }
        return items.compactMap(\.string)
    }
}

extension BusValue {
    /// An `a{sv}` built from Swift pairs, for replies and signals.
    public static func vardict(_ entries: [(String, BusValue)]) -> BusValue {
        .dictionary(keySignature: "s", valueSignature: "v",
                    entries.map { (key: .string($0.0), value: .variant($0.1)) })
    }

    /// The entries of an `a{sv}`, keyed by name; later duplicates win, as in GVariant lookups.
    public var vardictEntries: [String: BusValue]? {
        guard let pairs = vardictPairs else { return nil }
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    /// An `a{sv}` as its pairs in order, variants unwrapped: cheaper than a dictionary when
    /// only a few keys are read once.
    public var vardictPairs: [(key: String, value: BusValue)]? {
        guard case .dictionary("s", "v", let entries) = unwrapped else { return nil }
        var pairs: [(key: String, value: BusValue)] = []
        pairs.reserveCapacity(entries.count)
        for entry in entries {
            if case .string(let key) = entry.key { pairs.append((key, entry.value.unwrapped)) }
        }
        return pairs
    }

    /// An `aa{sv}` as dictionaries.
    public var records: [[String: BusValue]] {
        guard case .array(_, let items) = unwrapped else { return [] }
        return items.compactMap(\.vardictEntries)
    }

    public static func stringArray(_ strings: [String]) -> BusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }
}
