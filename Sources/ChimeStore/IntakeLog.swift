import Glibc

/// An append-only file of store rows, written before chimed replies to a Notify so the reply
/// need not wait for SQLite: one `write(2)` makes a row survive `kill -9` (as a WAL commit with
/// synchronous=NORMAL does, for a tenth of its work); SQLite takes the row once the reply is
/// gone. At the next start, rows SQLite never took are put in from here (`records`).
///
/// A record: payload length (UInt32), FNV-1a of the payload (UInt64), then the payload: its
/// sequence number (Int64), the number of values (UInt16) and each value as a tag byte (0 null,
/// 1 integer as 8 bytes, 2 text as a UInt32 length and UTF-8), all little-endian. A record
/// that is cut short or does not match its checksum ends the log: it was never acknowledged.
final class IntakeLog {
    private let descriptor: Int32
    private(set) var size: Int
    /// Reused for every record, so an append allocates nothing once warm.
    private var buffer: [UInt8] = []

    init?(path: String) {
        descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        size = Int(lseek(descriptor, 0, SEEK_END))
    }

    deinit { close(descriptor) }

    /// Appends one record. False when the whole record could not be written (a full disk);
    /// nothing of it is then left in the log.
    func append(_ values: [SQLiteDatabase.Value], sequence: Int64) -> Bool {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: repeatElement(0, count: 12))
        put(UInt64(bitPattern: sequence))
        put(UInt16(values.count))
        for value in values {
            switch value {
            case .null:
                buffer.append(0)
            case .integer(let number):
                buffer.append(1)
                put(UInt64(bitPattern: number))
            case .text(var text):
                buffer.append(2)
                text.withUTF8 { bytes in
                    put(UInt32(bytes.count))
                    buffer.append(contentsOf: bytes)
                }
            }
        }
        let payload = buffer.count - 12
        let checksum = buffer.withUnsafeBufferPointer { Self.fnv1a($0[12...]) }
        withUnsafeBytes(of: UInt32(payload).littleEndian) { buffer.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: checksum.littleEndian) { buffer.replaceSubrange(4..<12, with: $0) }
        let written = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == buffer.count else {
            if written > 0 { _ = ftruncate(descriptor, off_t(size)) }
            return false
        }
        size += written
        return true
    }

    /// The records from the start of the log up to the first one cut short or damaged.
    func records() -> [(sequence: Int64, values: [SQLiteDatabase.Value])] {
        var bytes = [UInt8](repeating: 0, count: size)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read > 0 else { return [] }
        var reader = Reader(bytes: bytes[..<read])
        var found: [(Int64, [SQLiteDatabase.Value])] = []
        while let record = reader.record() { found.append(record) }
        return found
    }

    /// Empties the log, once SQLite holds everything in it.
    func clear() {
        guard size > 0, ftruncate(descriptor, 0) == 0 else { return }
        size = 0
    }

    private func put<T: FixedWidthInteger>(_ number: T) {
        withUnsafeBytes(of: number.littleEndian) { buffer.append(contentsOf: $0) }
    }

    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// Walks the log's bytes; every read checks that the bytes are there.
    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var position: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        mutating func record() -> (Int64, [SQLiteDatabase.Value])? {
            guard let length = number(UInt32.self).map(Int.init), let checksum = number(UInt64.self),
                  position + length <= bytes.endIndex,
                  IntakeLog.fnv1a(bytes[position..<position + length]) == checksum else { return nil }
            var payload = Reader(bytes: bytes[position..<position + length])
            position += length
            guard let sequence = payload.number(UInt64.self), let count = payload.number(UInt16.self) else { return nil }
            var values: [SQLiteDatabase.Value] = []
            for _ in 0..<count {
                guard let value = payload.value() else { return nil }
                values.append(value)
            }
            return (Int64(bitPattern: sequence), values)
        }

        mutating func value() -> SQLiteDatabase.Value? {
            switch number(UInt8.self) {
            case 0: return .null
            case 1: return number(UInt64.self).map { .integer(Int64(bitPattern: $0)) }
            case 2:
                guard let length = number(UInt32.self).map(Int.init), position + length <= bytes.endIndex else { return nil }
                defer { position += length }
                return .text(String(decoding: bytes[position..<position + length], as: UTF8.self))
            default: return nil
            }
        }

        mutating func number<T: FixedWidthInteger>(_: T.Type) -> T? {
            let width = MemoryLayout<T>.size
            guard position + width <= bytes.endIndex else { return nil }
            var value: T = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[position..<position + width]) }
            position += width
            return T(littleEndian: value)
        }
    }
}
