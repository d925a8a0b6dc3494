import ChimeCore
import Glibc

/// An append-only file of store rows, written before chimed replies to a Notify so the reply
/// need not wait for SQLite: one `write(2)` makes a turn's rows survive `kill -9` (as a WAL
/// commit with synchronous=NORMAL does, for a tenth of its work); SQLite takes the rows once the
/// replies are gone. At the next start, rows SQLite never took are put in from here (`records`).
///
/// A record: payload length (UInt32), a checksum of the payload (UInt64), then the payload: its
/// sequence number (Int64), the number of values (UInt16) and each value as a tag byte (0 null,
/// 1 integer as 8 bytes, 2 text as a UInt32 length and UTF-8), all little-endian. A record
/// that is cut short or does not match its checksum (`checksum`) ends the log: it was never acknowledged.
final class IntakeLog {
    let descriptor: Int32
    /// Bytes in the file.
    private(set) var size: Int
    /// Records appended since the last `flush`, put together in place: the buffer is kept, and
    /// grown when they need it, so an append allocates nothing once warm and writes each byte once.
    private var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 8)
    private var pending = 0
    /// The errno of the last write that failed.
    private(set) var failure: Int32 = 0
    static let headerSize = 12

    init?(path: String) {
        descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            scratch.deallocate()
            return nil
        }
        size = Int(lseek(descriptor, 0, SEEK_END))
    }

    deinit {
        close(descriptor)
        scratch.deallocate()
    }

    /// Appends one record to those the next `flush` writes.
    func append(_ values: [SQLiteDatabase.Value], sequence: Int64) {
        var payload = 8 + 2
        for value in values {
            switch value {
            case .null: payload += 1
            case .integer: payload += 9
            case .text(let text): payload += 5 + text.utf8.count
            }
        }
        let start = pending
        let end = start + Self.headerSize + payload
        if scratch.count < end {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(end, 2 * scratch.count), alignment: 8)
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[..<pending]))
            scratch.deallocate()
            scratch = grown
        }
        var out = Writer(base: scratch.baseAddress!, position: start + Self.headerSize)
        out.put(UInt64(bitPattern: sequence))
        out.put(UInt16(values.count))
        for value in values {
            switch value {
            case .null:
                out.put(UInt8(0))
            case .integer(let number):
                out.put(UInt8(1))
                out.put(UInt64(bitPattern: number))
            case .text(var text):
                out.put(UInt8(2))
                text.withUTF8 { bytes in
                    out.put(UInt32(bytes.count))
                    out.copy(UnsafeRawBufferPointer(bytes))
                }
            }
        }
        var header = Writer(base: scratch.baseAddress!, position: start)
        header.put(UInt32(payload))
        header.put(Self.checksum(UnsafeRawBufferPointer(rebasing: scratch[(start + Self.headerSize)..<end])))
        pending = end
    }

    /// Writes the records appended since the last flush, in one `write(2)`. False when they could
    /// not all be written (a full disk: `failure` says why); none of them is then left in the log.
    func flush() -> Bool {
        guard pending > 0 else { return true }
        let total = pending
        pending = 0
        let written = write(descriptor, scratch.baseAddress, total)
        guard written == total else {
            failure = written < 0 ? errno : ENOSPC
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
        return bytes.withUnsafeBytes { all in
            var reader = Reader(bytes: UnsafeRawBufferPointer(rebasing: all[..<read]))
            var found: [(Int64, [SQLiteDatabase.Value])] = []
            while let record = reader.record() { found.append(record) }
            return found
        }
    }

    /// Empties the log, once SQLite holds everything in it.
    func clear() {
        guard size > 0, ftruncate(descriptor, 0) == 0 else { return }
        size = 0
    }

    /// Tells a record cut short or overwritten from a whole one.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = WordHash()
        hash.combine(bytes)
        return hash.value
    }

    private struct Writer {
        let base: UnsafeMutableRawPointer
        var position: Int

        mutating func put<T: FixedWidthInteger>(_ number: T) {
            base.storeBytes(of: number.littleEndian, toByteOffset: position, as: T.self)
            position += MemoryLayout<T>.size
        }

        mutating func copy(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress else { return }
            (base + position).copyMemory(from: source, byteCount: bytes.count)
            position += bytes.count
        }
    }

    /// Walks the log's bytes; every read checks that the bytes are there.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func record() -> (Int64, [SQLiteDatabase.Value])? {
            guard let length = number(UInt32.self).map(Int.init), let checksum = number(UInt64.self),
                  position + length <= bytes.count else { return nil }
            let body = UnsafeRawBufferPointer(rebasing: bytes[position..<position + length])
            guard IntakeLog.checksum(body) == checksum else { return nil }
            var payload = Reader(bytes: body)
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
                guard let length = number(UInt32.self).map(Int.init), position + length <= bytes.count else { return nil }
                defer { position += length }
                return .text(String(decoding: bytes[position..<position + length], as: UTF8.self))
            default: return nil
            }
        }

        mutating func number<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard position + MemoryLayout<T>.size <= bytes.count else { return nil }
            defer { position += MemoryLayout<T>.size }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
        }
    }
}
