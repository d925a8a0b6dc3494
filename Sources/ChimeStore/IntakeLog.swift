import CSQLite
import ChimeCore
import Glibc

/// An append-only file of store rows, written before chimed replies to a Notify so the reply
/// need not wait for SQLite: the rows a turn recorded are copied into the file's pages in the
/// page cache, which outlive the process, so they survive `kill -9` (as a WAL commit with
/// synchronous=NORMAL does, for a tenth of its work); SQLite takes the rows once the replies are
/// gone. At the next start, rows SQLite never took are put in from here (`records`).
///
/// The file is written through a shared mapping rather than `write(2)`: a copy of a turn's
/// rows costs a Notify about 50 ns where the system call cost it 3-4 µs (measured when it was made; see git log). Its
/// space is allocated ahead (zeros written 64 KB at a time, outside the replies' path:
/// `makeRoomAhead`), so a full disk is met when the space is asked for, never as a fault on a
/// page; the file is therefore longer than its records, and zeros follow the last. That holds only
/// where writing the zeros reserves the blocks for good (`reservesBlocksOnWrite`); on a
/// copy-on-write file system (btrfs, bcachefs, ZFS) every write through the mapping needs new
/// space, and a full disk would kill chimed with SIGBUS, so there the records go by `write(2)`.
///
/// A record: payload length (UInt32), a checksum of the payload (UInt64), then the payload: its
/// sequence number (Int64), the number of values (UInt16) and each value as a tag byte (0 null,
/// 1 integer as 8 bytes, 2 text as a UInt32 length and UTF-8, 3 real as a Double's 8 bytes, 4 bytes
/// as a UInt32 length and the bytes), all little-endian. A record
/// that is cut short, empty or does not match its checksum (`checksum`) ends the log: it was never acknowledged.
final class IntakeLog {
    let descriptor: Int32
    /// Bytes of records: where the next goes.
    private(set) var size: Int
    /// Bytes the file has room for (its length).
    private var allocated: Int
    /// The part of the file mapped: `mappedLength` bytes from `mappedStart` (a multiple of the
    /// page size). It may reach past the file's end, which is never touched. Nil where records
    /// are written with `write(2)`.
    private var mapping: UnsafeMutableRawPointer?
    private var mappedStart: Int
    private var mappedLength = IntakeLog.windowLength
    /// Where the pages faulted in ahead of the records end (`makeRoomAhead`).
    private var faultedEnd: Int
    /// Records appended since the last `flush`, put together here: the buffer is kept, and
    /// grown when they need it, so an append allocates nothing once warm; a turn's records reach
    /// the file only together, at its end.
    private var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 8)
    private var pending = 0
    /// The errno of the last write that failed.
    private(set) var failure: Int32 = 0
    /// Allocates file space, returning an errno or 0; tests replace it to make the disk full.
    var allocate: (_ descriptor: Int32, _ offset: Int, _ length: Int) -> Int32 = IntakeLog.writeZeros
    static let headerSize = 12
    /// The smallest payload: a sequence number and a count of values.
    static let smallestPayload = 10
    static let allocationStep = 64 << 10
    static let windowLength = 256 << 10
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Nil when the file cannot be opened or mapped: rows then go to SQLite before each reply.
    /// New records go after the last whole one (an earlier chimed may have left zeros or a
    /// record cut short after it). `mapped`: whether to write through a mapping (tests choose).
    init?(path: String, mapped: ((Int32) -> Bool)? = nil) {
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        allocated = descriptor >= 0 ? Int(lseek(descriptor, 0, SEEK_END)) : 0
        size = Self.validLength(Self.contents(of: descriptor, length: allocated))
        mappedStart = size / Self.pageSize * Self.pageSize
        faultedEnd = mappedStart
        // Every property is set: returning nil runs deinit, which closes and frees.
        guard descriptor >= 0 else { return nil }
        guard (mapped ?? Self.reservesBlocksOnWrite)(descriptor) else { return }
        guard let window = Self.map(descriptor, from: mappedStart, length: mappedLength) else { return nil }
        mapping = window
    }

    /// File systems where a block written once (the zeros of `writeZeros`) takes later writes
    /// through a mapping without needing space again: ext2/3/4, XFS and tmpfs.
    static func reservesBlocksOnWrite(_ descriptor: Int32) -> Bool {
        [0xEF53, 0x5846_5342, 0x0102_1994].contains(chime_file_system_type(descriptor))
    }

    deinit {
        if let mapping { munmap(mapping, mappedLength) }
        if descriptor >= 0 { close(descriptor) }
        scratch.deallocate()
    }

    /// Allocates by writing zeros rather than with `posix_fallocate`: a page already in the page
    /// cache takes its first write through the mapping without the file system's journal
    /// (measured here: 0.8 µs a page against 3.4 µs after fallocate). The zeros come from a
    /// read-only anonymous mapping: the kernel's zero page, no memory of chimed's.
    static func writeZeros(_ descriptor: Int32, at offset: Int, length: Int) -> Int32 {
        var done = 0
        while done < length {
            let written = pwrite(descriptor, zeros, min(length - done, allocationStep), off_t(offset + done))
            guard written > 0 else { return written < 0 ? errno : ENOSPC }
            done += written
        }
        return 0
    }

    nonisolated(unsafe) private static let zeros = mmap(nil, allocationStep, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)

    private static func map(_ descriptor: Int32, from start: Int, length: Int) -> UnsafeMutableRawPointer? {
        let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(start))
        return mapped == UnsafeMutableRawPointer(bitPattern: -1) ? nil : mapped
    }

    /// Appends one record to those the next `flush` writes.
    func append(_ values: [SQLiteDatabase.Value], sequence: Int64) {
        var payload = 8 + 2
        for value in values {
            switch value {
            case .null: payload += 1
            case .integer, .real: payload += 9
            case .text(let text): payload += 5 + text.utf8.count
            case .blob(let bytes): payload += 5 + bytes.count
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
            case .real(let number):
                out.put(UInt8(3))
                out.put(number.bitPattern)
            case .text(let text):
                out.put(UInt8(2))
                text.withUTF8Bytes { bytes in
                    out.put(UInt32(bytes.count))
                    out.copy(UnsafeRawBufferPointer(bytes))
                }
            case .blob(let bytes):
                out.put(UInt8(4))
                out.put(UInt32(bytes.count))
                bytes.withUnsafeBytes { out.copy($0) }
            }
        }
        var header = Writer(base: scratch.baseAddress!, position: start)
        header.put(UInt32(payload))
        header.put(Self.checksum(UnsafeRawBufferPointer(rebasing: scratch[(start + Self.headerSize)..<end])))
        pending = end
    }

    /// Copies the records appended since the last flush into the file, together. False when
    /// there is no room for them (a full disk: `failure` says why); none of them is then in the log.
    func flush() -> Bool {
        guard pending > 0 else { return true }
        let total = pending
        pending = 0
        guard mapping != nil else { return writeRecords(total) }
        guard makeRoom(for: total), let mapping else { return false }
        (mapping + (size - mappedStart)).copyMemory(from: scratch.baseAddress!, byteCount: total)
        size += total
        faultedEnd = max(faultedEnd, (size + Self.pageSize - 1) / Self.pageSize * Self.pageSize)
        return true
    }

    /// After the replies: allocates the file's next step before the records need it, and
    /// faults in the page after the one being written, so a reply waits for neither. Both are
    /// small steps: work after a reply still delays a call that comes during it (a page's fault
    /// costs about 1 µs here, 64 KB of allocation 15 µs). What fails here is met, and said, by
    /// the next `flush`.
    func makeRoomAhead() {
        guard mapping != nil else { return }
        let ahead = Self.allocationStep / 2
        if size < mappedStart || size + ahead > min(allocated, mappedEnd) { _ = makeRoom(for: ahead) }
        // Read again: makeRoom may have moved the mapping.
        if let mapping, faultedEnd >= mappedStart, faultedEnd < min(size + 2 * Self.pageSize, allocated, mappedEnd) {
            _ = madvise(mapping + (faultedEnd - mappedStart), Self.pageSize, MADV_POPULATE_WRITE)
            faultedEnd += Self.pageSize
        }
    }

    private var mappedEnd: Int { mappedStart + mappedLength }

    /// Where records are not mapped: one `write(2)` at their end; cut back if it fell short.
    private func writeRecords(_ total: Int) -> Bool {
        let written = pwrite(descriptor, scratch.baseAddress, total, off_t(size))
        guard written == total else {
            failure = written < 0 ? errno : ENOSPC
            if written > 0 { _ = ftruncate(descriptor, off_t(size)) }
            return false
        }
        size += written
        allocated = max(allocated, size)
        return true
    }

    /// Room for `count` more bytes at `size`: allocated in the file and mapped (a mapping that
    /// could not be moved back to the start when the log was emptied is moved here).
    private func makeRoom(for count: Int) -> Bool {
        let end = size + count
        if end > allocated {
            let step = (end - allocated + Self.allocationStep - 1) / Self.allocationStep * Self.allocationStep
            let result = allocate(descriptor, allocated, step)
            guard result == 0 else {
                failure = result
                return false
            }
            allocated += step
        }
        if size < mappedStart || end > mappedEnd, !remap(at: size, length: max(Self.windowLength, count + Self.pageSize)) {
            failure = errno
            return false
        }
        return true
    }

    /// Maps the part of the file from the page holding `offset`.
    private func remap(at offset: Int, length: Int = IntakeLog.windowLength) -> Bool {
        let start = offset / Self.pageSize * Self.pageSize
        guard let mapped = Self.map(descriptor, from: start, length: length) else { return false }
        if let mapping { munmap(mapping, mappedLength) }
        mapping = mapped
        mappedStart = start
        mappedLength = length
        faultedEnd = start
        return true
    }

    /// The records from the start of the log up to the first one cut short or damaged.
    func records() -> [(sequence: Int64, values: [SQLiteDatabase.Value])] {
        let bytes = Self.contents(of: descriptor, length: allocated)
        return bytes.withUnsafeBytes { all in
            var reader = Reader(bytes: UnsafeRawBufferPointer(all))
            var found: [(Int64, [SQLiteDatabase.Value])] = []
            while let record = reader.record() { found.append(record) }
            return found
        }
    }

    private static func contents(of descriptor: Int32, length: Int) -> [UInt8] {
        guard descriptor >= 0, length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(read, 0)))
    }

    /// Bytes of whole records at the start of `bytes`.
    private static func validLength(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { all in
            var reader = Reader(bytes: all)
            while reader.record() != nil {}
            return reader.lastWhole
        }
    }

    /// Empties the log, once SQLite holds everything in it, and allocates its first step again.
    func clear() {
        guard size > 0, ftruncate(descriptor, 0) == 0 else { return }
        size = 0
        allocated = 0
        faultedEnd = 0
        if mapping != nil, mappedStart != 0 { _ = remap(at: 0) }
        makeRoomAhead()
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
        /// Where the last whole record ended.
        var lastWhole = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func record() -> (Int64, [SQLiteDatabase.Value])? {
            guard let length = number(UInt32.self).map(Int.init), let checksum = number(UInt64.self),
                  length >= IntakeLog.smallestPayload, position + length <= bytes.count else { return nil }
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
            lastWhole = position
            return (Int64(bitPattern: sequence), values)
        }

        mutating func value() -> SQLiteDatabase.Value? {
            switch number(UInt8.self) {
            case 0: return .null
            case 1: return number(UInt64.self).map { .integer(Int64(bitPattern: $0)) }
            case 3: return number(UInt64.self).map { .real(Double(bitPattern: $0)) }
            case 2:
                guard let length = number(UInt32.self).map(Int.init), position + length <= bytes.count else { return nil }
                defer { position += length }
                return .text(String(decoding: bytes[position..<position + length], as: UTF8.self))
            case 4:
                guard let length = number(UInt32.self).map(Int.init), position + length <= bytes.count else { return nil }
                defer { position += length }
                return .blob(Array(bytes[position..<position + length]))
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
