import Glibc

/// The two logs chimed 0.1.0 kept beside the store, read once as a newer chimed first opens it,
/// so an upgrade loses nothing 0.1.0 acknowledged: `chime.db-intake`, rows it wrote before its
/// replies and put into SQLite after them, and `chime.db-calls`, Notify calls its bus thread
/// answered before its main thread handled them. After a clean stop both hold nothing new; after
/// a `kill -9`, or while the disk was full, they can hold what SQLite never got.
///
/// Both have one format: records of a payload's length (UInt32), its checksum (UInt64, `checksum`)
/// and the payload: a sequence number (Int64), a count of values (UInt16) and each value as a tag
/// byte (0 null, 1 integer as 8 bytes, 2 text as a UInt32 length and UTF-8, 3 real as a Double's
/// 8 bytes, 4 bytes as a UInt32 length and the bytes), all little-endian. A record cut short,
/// empty or not matching its checksum ends the log: 0.1.0 never acknowledged it.
enum OlderLogs {
    enum Field: Equatable {
        case value(SQLiteDatabase.Value)
        case bytes([UInt8])
    }

    struct Record: Equatable {
        let sequence: Int64
        let fields: [Field]
    }

    /// A record longer than this is no record of 0.1.0's (its largest, a call, was 256 KB): the log
    /// ends there rather than chimed reading garbage's idea of a length.
    static let largestRecord = 64 << 20

    /// The whole records at the start of the file at `path`; none when there is no such file.
    static func records(at path: String) -> [Record] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var records: [Record] = []
        var offset = 0
        while let header = read(descriptor, at: offset, count: 12) {
            let length = Int(header.number(UInt32.self, at: 0))
            guard length >= 10, length <= largestRecord, let payload = read(descriptor, at: offset + 12, count: length),
                  checksum(payload) == header.number(UInt64.self, at: 4), let record = Record(payload) else { break }
            records.append(record)
            offset += 12 + length
        }
        return records
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return got == count ? bytes : nil
    }

    /// 0.1.0's checksum: FNV-1a over 8-byte little-endian words, the last padded with zeros, and
    /// then the length.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        func mix(_ value: UInt64, _ word: UInt64) -> UInt64 { (value ^ word) &* 0x100_0000_01b3 }
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        var start = 0
        while start < bytes.count {
            var word: UInt64 = 0
            for (shift, byte) in bytes[start..<min(start + 8, bytes.count)].enumerated() { word |= UInt64(byte) << (8 * shift) }
            value = mix(value, word)
            start += 8
        }
        return mix(value, UInt64(bytes.count))
    }
}

extension OlderLogs.Record {
    /// Nil when the payload does not hold what its count of values says.
    init?(_ payload: [UInt8]) {
        var position = 10
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, position + count <= payload.count else { return nil }
            defer { position += count }
            return payload[position..<position + count]
        }
        func length() -> Int? { take(4).map { Int($0.number(UInt32.self, at: 0)) } }
        var fields: [OlderLogs.Field] = []
        for _ in 0..<Int(payload.number(UInt16.self, at: 8)) {
            guard let tag = take(1)?.first else { return nil }
            switch tag {
            case 0: fields.append(.value(.null))
            case 1: guard let bytes = take(8) else { return nil }
                fields.append(.value(.integer(Int64(bitPattern: bytes.number(UInt64.self, at: 0)))))
            case 2: guard let count = length(), let bytes = take(count) else { return nil }
                fields.append(.value(.text(String(decoding: bytes, as: UTF8.self))))
            case 3: guard let bytes = take(8) else { return nil }
                fields.append(.value(.real(Double(bitPattern: bytes.number(UInt64.self, at: 0)))))
            case 4: guard let count = length(), let bytes = take(count) else { return nil }
                fields.append(.bytes(Array(bytes)))
            default: return nil
            }
        }
        self.init(sequence: Int64(bitPattern: payload.number(UInt64.self, at: 0)), fields: fields)
    }
}

extension Collection<UInt8> where Index == Int {
    /// The little-endian integer at `offset` from the start.
    fileprivate func number<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size { value |= T(self[startIndex + offset + index]) << (8 * index) }
        return value
    }
}

/// A Notify chimed 0.1.0 answered, with `id`, and stopped before it handled: chimed handles it
/// as it starts, under the id its app holds (`NotificationStore.olderCalls`).
public struct OlderCall: Sendable {
    public let id: UInt32
    public let sender: String
    /// When it came: unix milliseconds.
    public let wall: Int64
    /// The call's message, marshalled.
    public let bytes: [UInt8]
}

extension NotificationStore {
    /// Inside the migration that drops 0.1.0's record of how far SQLite took its intake log
    /// (`StoreSchema`): the rows past that point go into SQLite as 0.1.0 recorded them.
    static func takeOlderIntake(at path: String, into database: SQLiteDatabase) throws(StoreError) -> Int {
        var applied: Int64 = 0
        try database.run("SELECT applied FROM intake") { applied = $0.integer(0) }
        var taken = 0
        for record in OlderLogs.records(at: path) where record.sequence > applied {
            let values = record.fields.compactMap { field -> SQLiteDatabase.Value? in
                if case .value(let value) = field { value } else { nil }
            }
            guard values.count == 28, values.count == record.fields.count else { continue }
            do {
                try database.run(insertSQL, values)
                taken += 1
            } catch where !error.isAccessFailure {
                continue  // a row SQLite refuses is left out, not the store taken for damaged
            }
        }
        return taken
    }

    /// The calls chimed 0.1.0 answered and had not handled when it stopped, oldest first, that the
    /// center does not hold.
    public func olderCalls() -> [OlderCall] {
        var calls: [(sequence: Int64, call: OlderCall)] = []
        for record in OlderLogs.records(at: path + "-calls") {
            let fields = record.fields
            if fields == [.value(.integer(-1))] {  // every call up to here was handled
                calls.removeAll { $0.sequence <= record.sequence }
                continue
            }
            guard fields.count == 4, case .value(.integer(let id)) = fields[0], case .value(.text(let sender)) = fields[1],
                  case .value(.integer(let wall)) = fields[2], case .bytes(let bytes) = fields[3] else { continue }
            calls.append((record.sequence, OlderCall(id: UInt32(truncatingIfNeeded: id), sender: sender, wall: wall, bytes: bytes)))
        }
        return calls.map(\.call).filter { !contains($0.id) }
    }

    /// Once what `olderCalls` gave is in the center: 0.1.0's call log goes.
    public func forgetOlderCalls() {
        unlink(path + "-calls")
    }
}
