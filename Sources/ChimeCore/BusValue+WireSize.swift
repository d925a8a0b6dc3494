extension BusValue {
    /// D-Bus refuses an array over 64 MiB and a message over 128 MiB; a bus that receives one
    /// drops the connection that sent it.
    public static let maximumArrayBytes = 64 * 1024 * 1024

    /// At most how many bytes this value takes in a message, alignment padding included: what
    /// a reply counts to stay inside D-Bus's limits without marshalling itself first.
    public var wireSizeBound: Int {
        switch self {
        case .byte: 1
        case .bool, .int16, .uint16, .int32, .uint32, .unixFD: 8
        case .int64, .uint64, .double: 16
        case .string(let text), .objectPath(let text): 4 + text.utf8.count + 1 + 7
        case .signature(let text): text.utf8.count + 2
        case .bytes(let bytes): 4 + 7 + bytes.count
        case .array(_, let items): items.reduce(4 + 7) { $0 + $1.wireSizeBound }
        case .dictionary(_, _, let entries): entries.reduce(4 + 7) { $0 + 7 + $1.key.wireSizeBound + $1.value.wireSizeBound }
        case .structure(let fields): fields.reduce(7) { $0 + $1.wireSizeBound }
        case .variant(let inner): inner.signature.utf8.count + 2 + inner.wireSizeBound
        }
    }
}
