import CDBus
import ChimeCore
import Glibc

/// Reads a message's arguments from its wire bytes, in order: typed reads for the calls that come
/// often (Notify) and `all()` for the rest. libdbus validated every byte when the message arrived
/// (alignment, lengths, UTF-8, nesting, the signature), so reading is a walk over them, where
/// libdbus's own iterator checks each step again.
/// A typed read returns nil, and reads nothing, when the next argument is of another type.
public struct ArgumentReader {
    /// The marshalled message, freed with the last copy of the reader, and the message itself,
    /// whose signature the reader reads in place. One object: a copy of the reader (one for each
    /// hint read) retains one reference, not two.
    private final class Wire {
        let message: Message
        let start: UnsafeMutablePointer<CChar>?
        let count: Int
        init(_ message: Message) {
            self.message = message
            var start: UnsafeMutablePointer<CChar>?
            var count: Int32 = 0
            if dbus_message_marshal(message.raw, &start, &count) == 0 { (start, count) = (nil, 0) }
            (self.start, self.count) = (start, Int(count))
        }
        deinit { dbus_free(start) }
    }

    private let wire: Wire
    private let bytes: UnsafeRawBufferPointer
    /// The message is in the other byte order than this machine's.
    private let swapped: Bool
    /// The message's own signature, read in place (`wire` keeps the message alive).
    private let signature: UnsafeBufferPointer<UInt8>
    /// Where the next argument's type starts in `signature`, and its value in `bytes`.
    private var nextType = 0
    private var position = 0

    public init(_ message: Message) {
        wire = Wire(message)
        bytes = UnsafeRawBufferPointer(start: wire.start, count: wire.count)
        let raw = UnsafeRawPointer(dbus_message_get_signature(message.raw)!).assumingMemoryBound(to: UInt8.self)
        signature = UnsafeBufferPointer(start: raw, count: strlen(raw))
        guard bytes.count >= 16 else {
            (swapped, nextType) = (false, signature.count)
            return
        }
        swapped = (bytes[0] == UInt8(ascii: "B")) != (UInt32(1).bigEndian == 1)
        // The header: 12 fixed bytes, the serial, then the fields' array, padded to 8.
        position = 12
        position = 16 + Int(fixed(UInt32.self))
        align(8)
    }

    public var isAtEnd: Bool { nextType >= signature.count }

    /// The whole message as it came, marshalled (its size bounds what reading it costs).
    public var messageBytes: UnsafeRawBufferPointer { bytes }

    /// A string's bytes, in place, without its NUL: valid while this reader is.
    public mutating func stringBytes() -> UnsafeRawBufferPointer? {
        guard take("s") else { return nil }
        return readStringBytes()
    }

    /// How many strings an `as` holds, stepped over.
    public mutating func stringCount() -> Int? {
        guard take("as") else { return nil }
        let end = arrayEnd(elementAlignment: 4)
        defer { position = end }
        return count(stringsBefore: end)
    }

    public mutating func string() -> String? {
        guard take("s") else { return nil }
        return readString()
    }

    public mutating func uint32() -> UInt32? {
        guard take("u") else { return nil }
        return fixed(UInt32.self)
    }

    public mutating func int32() -> Int32? {
        guard take("i") else { return nil }
        return Int32(bitPattern: fixed(UInt32.self))
    }

    /// An `as` of pairs (Notify's actions: key, label, key, label...), each pair made into a `T`
    /// as it is read rather than kept in a list of strings first; `count` is the number of strings,
    /// so that an odd one out (left unread) can be reported. Past `limit` pairs the rest are only counted.
    public mutating func stringPairs<T>(upTo limit: Int = .max, _ pair: (String, String) -> T) -> (pairs: [T], count: Int)? {
        guard take("as") else { return nil }
        let end = arrayEnd(elementAlignment: 4)
        let count = count(stringsBefore: end)
        var pairs: [T] = []
        pairs.reserveCapacity(min(limit, count / 2))
        for _ in 0..<min(limit, count / 2) { pairs.append(pair(readString(), readString())) }
        position = end
        return (pairs, count)
    }

    /// How many strings lie between here and `end`, from their lengths alone: an array of them
    /// is then made once, not grown one allocation at a time.
    private func count(stringsBefore end: Int) -> Int {
        var walker = self
        var count = 0
        while walker.position < end {
            walker.position += Int(walker.fixed(UInt32.self)) + 1  // the bytes and their NUL
            count += 1
        }
        return count
    }

    /// Notify's hints (an `a{sv}`): the value of each name Chime reads, the last when a name
    /// repeats; the others are only stepped over.
    public mutating func hints() -> [HintName: BusValue]? {
        guard take("a{sv}") else { return nil }
        let end = arrayEnd(elementAlignment: 8)
        var hints: [HintName: BusValue] = [:]
        while position < end {
            align(8)
            let name = HintName(utf8: readStringBytes())
            let start = position
            skipVariant()
            if let name { hints[name] = variant(at: start) }
        }
        position = end
        return hints
    }

    /// The value of the variant at `start`, unwrapped; this reader does not move.
    private func variant(at start: Int) -> BusValue {
        var reader = self
        reader.position = start
        return reader.variantValue()
    }

    /// A variant's value, unwrapped. Hints are nearly always of one basic type, whose one-letter
    /// signature is read in place instead of being copied out first.
    private mutating func variantValue() -> BusValue {
        guard position + 2 < bytes.count, bytes[position] == 1, bytes[position + 2] == 0,
              let basic = basicValue(bytes[position + 1], at: position + 3)
        else { return value(of: readSignature()).unwrapped }
        return basic
    }

    /// Every argument not read yet.
    public mutating func all() -> [BusValue] {
        var values: [BusValue] = []
        let types = ArraySlice(signature)
        while !isAtEnd {
            let end = nextType + Self.completeTypeLength(types, at: nextType)
            values.append(value(of: types[nextType..<end]))
            nextType = end
        }
        return values
    }

    /// Steps past `type`, one complete type, in the signature when the next argument is of that
    /// type. No complete type begins with another, so matching its bytes is enough.
    private mutating func take(_ type: StaticString) -> Bool {
        guard signature.hasBytes(type, at: nextType) else { return false }
        nextType += type.utf8CodeUnitCount
        return true
    }

    // MARK: The wire format
    // Every read stays inside the bytes even if they were not what libdbus vouched for: a bad
    // length ends the walk at the end of the message instead of reading past it.

    private mutating func align(_ boundary: Int) {
        position = (position + boundary - 1) & ~(boundary - 1)
    }

    private mutating func fixed<T: FixedWidthInteger>(_: T.Type) -> T {
        align(MemoryLayout<T>.size)
        guard position + MemoryLayout<T>.size <= bytes.count else {
            position = bytes.count
            return 0
        }
        let value = bytes.loadUnaligned(fromByteOffset: position, as: T.self)
        position += MemoryLayout<T>.size
        return swapped ? value.byteSwapped : value
    }

    private mutating func readString() -> String {
        String(decoding: readStringBytes(), as: UTF8.self)
    }

    /// A string's bytes, in place, without its NUL.
    private mutating func readStringBytes() -> UnsafeRawBufferPointer {
        let count = min(Int(fixed(UInt32.self)), max(0, bytes.count - position - 1))
        defer { position += count + 1 }  // and its NUL
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }

    private mutating func readSignature() -> ArraySlice<UInt8> {
        guard position < bytes.count else { return [] }
        let count = min(Int(bytes[position]), max(0, bytes.count - position - 2))
        defer { position += count + 2 }  // the length byte and the NUL
        return Array(bytes[position + 1..<position + 1 + count])[...]
    }

    /// Reads an array's length and the padding to its first element; returns where it ends.
    private mutating func arrayEnd(elementAlignment: Int) -> Int {
        let count = Int(fixed(UInt32.self))
        align(elementAlignment)
        return min(position + count, bytes.count)
    }

    /// The value of a basic type, by its code, read from `start` on; nil, reading nothing, for
    /// a container's code.
    private mutating func basicValue(_ code: UInt8, at start: Int) -> BusValue? {
        let before = position
        position = start
        switch code {
        case UInt8(ascii: "y"):
            defer { position += 1 }
            return .byte(position < bytes.count ? bytes[position] : 0)
        case UInt8(ascii: "b"): return .bool(fixed(UInt32.self) != 0)
        case UInt8(ascii: "n"): return .int16(Int16(bitPattern: fixed(UInt16.self)))
        case UInt8(ascii: "q"): return .uint16(fixed(UInt16.self))
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: fixed(UInt32.self)))
        case UInt8(ascii: "u"): return .uint32(fixed(UInt32.self))
        case UInt8(ascii: "x"): return .int64(Int64(bitPattern: fixed(UInt64.self)))
        case UInt8(ascii: "t"): return .uint64(fixed(UInt64.self))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: fixed(UInt64.self)))
        case UInt8(ascii: "h"):
            // The index into the message's descriptors; libdbus closes them with the message
            // unless one is taken (`Message.fileDescriptor(at:)`).
            return .unixFD(fixed(UInt32.self))
        case UInt8(ascii: "s"): return .string(readString())
        case UInt8(ascii: "o"): return .objectPath(readString())
        case UInt8(ascii: "g"): return .signature(String(decoding: readSignature(), as: UTF8.self))
        default:
            position = before
            return nil
        }
    }

    /// The value of `type`, one complete type.
    private mutating func value(of type: ArraySlice<UInt8>) -> BusValue {
        if let code = type.first, let basic = basicValue(code, at: position) { return basic }
        switch type.first {
        case UInt8(ascii: "v"): return .variant(value(of: readSignature()))
        case UInt8(ascii: "("):
            align(8)
            var fields: [BusValue] = []
            var field = type.startIndex + 1
            while field < type.endIndex, type[field] != UInt8(ascii: ")") {
                let end = field + Self.completeTypeLength(type, at: field)
                fields.append(value(of: type[field..<end]))
                field = end
            }
            return .structure(fields)
        case UInt8(ascii: "a"):
            return array(of: type.dropFirst())
        default:
            return .structure([])
        }
    }

    private mutating func array(of element: ArraySlice<UInt8>) -> BusValue {
        let end = arrayEnd(elementAlignment: Self.alignment(of: element.first!))
        if element.first == UInt8(ascii: "y") {
            // Image data: one copy, however large.
            defer { position = end }
            return .bytes(position < end ? Array(bytes[position..<end]) : [])
        }
        if element.first == UInt8(ascii: "{") {
            let keyType = element.index(after: element.startIndex)..<element.index(after: element.startIndex) + 1
            let valueType = keyType.upperBound..<element.endIndex - 1
            var entries: [(key: BusValue, value: BusValue)] = []
            while position < end {
                align(8)
                let key = value(of: element[keyType])
                entries.append((key, value(of: element[valueType])))
            }
            return .dictionary(keySignature: String(decoding: element[keyType], as: UTF8.self),
                               valueSignature: String(decoding: element[valueType], as: UTF8.self), entries)
        }
        var items: [BusValue] = []
        while position < end { items.append(value(of: element)) }
        return .array(elementSignature: String(decoding: element, as: UTF8.self), items)
    }

    // MARK: Stepping over values

    private mutating func skipVariant() {
        guard position < bytes.count else { return }
        let count = min(Int(bytes[position]), max(0, bytes.count - position - 2))
        let type = bytes[position + 1..<position + 1 + count]
        position += count + 2  // the length byte and the NUL
        skip(type)
    }

    /// Steps over a value of `type`, one complete type, reading only the lengths on the way.
    private mutating func skip(_ type: Slice<UnsafeRawBufferPointer>) {
        guard let code = type.first else { return }
        switch code {
        case UInt8(ascii: "y"): position += 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): align(2); position += 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"): align(4); position += 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): align(8); position += 8
        case UInt8(ascii: "s"), UInt8(ascii: "o"): position += Int(fixed(UInt32.self)) + 1
        case UInt8(ascii: "g"): position += (position < bytes.count ? Int(bytes[position]) : 0) + 2
        case UInt8(ascii: "v"): skipVariant()
        case UInt8(ascii: "a"):
            position = arrayEnd(elementAlignment: Self.alignment(of: type.dropFirst().first ?? 0))
        default:  // a struct or a dict entry: its fields in turn, up to the closing bracket
            align(8)
            var field = type.startIndex + 1
            while field < type.endIndex - 1 {
                let end = field + Self.completeTypeLength(type, at: field)
                skip(type[field..<end])
                field = end
            }
        }
        position = min(position, bytes.count)
    }

    private static func alignment(of type: UInt8) -> Int {
        switch type {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4
        }
    }

    /// The length of the complete type starting at `index` of `signature`.
    private static func completeTypeLength<Signature: RandomAccessCollection<UInt8>>(
        _ signature: Signature, at index: Int) -> Int where Signature.Index == Int {
        switch signature[index] {
        case UInt8(ascii: "a"):
            return 1 + completeTypeLength(signature, at: index + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            var inner = index + 1
            while signature[inner] != UInt8(ascii: ")"), signature[inner] != UInt8(ascii: "}") {
                inner += completeTypeLength(signature, at: inner)
            }
            return inner + 1 - index
        default:
            return 1
        }
    }
}
