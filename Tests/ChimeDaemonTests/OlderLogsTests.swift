import Foundation
import Testing
@testable import ChimeStore

/// Reading the logs chimed 0.1.0 kept beside the center, from what it left when killed
/// (Tests/Fixtures/chimed-0.1.0-killed), and from those logs damaged.
@Suite struct OlderLogsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/chimed-0.1.0-killed")
    let folder = temporaryFolder("older-logs").path

    func fixtureBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.fixture.appendingPathComponent(name)))
    }

    func write(_ bytes: [UInt8]) -> String {
        let path = folder + "/log"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test func theIntakeLogReadsAsZeroOneZeroWroteIt() throws {
        let records = OlderLogs.records(at: Self.fixture.appendingPathComponent("chime.db-intake").path)
        #expect(records.map(\.sequence) == [1, 2])
        #expect(records.allSatisfy { $0.fields.count == 28 })
        #expect(records[1].fields[3] == .value(.text("Only in the intake")))
        #expect(records[1].fields[6] == .value(.null))
    }

    @Test func theCallLogReadsAsZeroOneZeroWroteIt() throws {
        let records = OlderLogs.records(at: Self.fixture.appendingPathComponent("chime.db-calls").path)
        #expect(records.map(\.sequence) == [1, 1, 2])
        #expect(records[1].fields == [.value(.integer(-1))], "every call up to 1 was handled")
        guard case .bytes(let message) = records[2].fields.last else { Issue.record("no message"); return }
        #expect(message.count == 324)
    }

    /// A record whose bytes changed after it was written ends the log: what follows it is not
    /// read either, as 0.1.0 would not have read it.
    @Test func aDamagedRecordEndsTheLog() throws {
        var bytes = try fixtureBytes("chime.db-intake")
        let first = OlderLogs.records(at: write(bytes))
        #expect(first.count == 2)
        let secondStart = 12 + Int(bytes[0]) | Int(bytes[1]) << 8
        bytes[secondStart + 40] ^= 0xff
        #expect(OlderLogs.records(at: write(bytes)).map(\.sequence) == [1])
    }

    @Test func aRecordCutShortEndsTheLog() throws {
        let bytes = try fixtureBytes("chime.db-intake")
        #expect(OlderLogs.records(at: write(Array(bytes.dropLast(1)))).map(\.sequence) == [1])
        #expect(OlderLogs.records(at: write(Array(bytes.prefix(11)))).isEmpty)
    }

    /// A length no record of 0.1.0's had is not believed: nothing is allocated for it.
    @Test func anImpossibleLengthEndsTheLog() throws {
        let header: [UInt8] = [0xff, 0xff, 0xff, 0x7f] + [UInt8](repeating: 0, count: 8)
        #expect(OlderLogs.records(at: write(header + [UInt8](repeating: 1, count: 100))).isEmpty)
    }

    @Test func noFileZerosOrGarbageAreNoRecords() throws {
        #expect(OlderLogs.records(at: folder + "/missing").isEmpty)
        #expect(OlderLogs.records(at: write([UInt8](repeating: 0, count: 65_536))).isEmpty)
        #expect(OlderLogs.records(at: write(Array("not a log at all, just text".utf8))).isEmpty)
        #expect(OlderLogs.records(at: folder).isEmpty, "a folder")
    }

    /// A record as 0.1.0 wrote it, of integers, texts and nulls.
    static func record(_ sequence: Int64, _ values: [SQLiteDatabase.Value]) -> [UInt8] {
        func bytes<T: FixedWidthInteger>(_ number: T) -> [UInt8] { withUnsafeBytes(of: number.littleEndian, Array.init) }
        var payload = bytes(sequence) + bytes(UInt16(values.count))
        for value in values {
            switch value {
            case .null: payload += [0]
            case .integer(let number): payload += [1] + bytes(number)
            case .text(let text): payload += [2] + bytes(UInt32(text.utf8.count)) + Array(text.utf8)
            case .real(let number): payload += [3] + bytes(number.bitPattern)
            }
        }
        return bytes(UInt32(payload.count)) + bytes(OlderLogs.checksum(payload)) + payload
    }

    /// The intake of a 0.1.0 store goes into SQLite as the store is migrated: the rows past the
    /// mark, as they were; one SQLite refuses (no app) is left out, and the store is not taken for
    /// damaged. The log is removed once SQLite has them.
    @Test func theIntakePastItsMarkGoesIntoSQLiteAndARefusedRowIsLeftOut() throws {
        let path = folder + "/chime.db"
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: Self.fixture.appendingPathComponent("chime.db" + suffix).path, toPath: path + suffix)
        }
        var intake = try fixtureBytes("chime.db-intake")
        var bad = OlderLogs.records(at: Self.fixture.appendingPathComponent("chime.db-intake").path)[1].fields.map { field in
            if case .value(let value) = field { value } else { SQLiteDatabase.Value.null }
        }
        bad[0] = .integer(4)
        bad[1] = .null  // app, which the table needs
        var good = bad
        good[1] = .text("Chat")
        good[0] = .integer(5)
        intake += Self.record(3, bad) + Self.record(4, good)
        FileManager.default.createFile(atPath: path + "-intake", contents: Data(intake))
        let store = try NotificationStore(path: path)
        #expect(store.olderRowsTaken == 2)
        #expect([1, 2, 4, 5].map { store.contains($0) } == [true, true, false, true])
        #expect(!FileManager.default.fileExists(atPath: path + "-intake"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains("corrupt") })
    }

    /// The calls to handle again: those after the last mark, and not one the center has.
    @Test func olderCallsAreThoseNeitherHandledNorInTheCenter() throws {
        let path = folder + "/chime.db"
        try FileManager.default.copyItem(atPath: Self.fixture.appendingPathComponent("chime.db-calls").path, toPath: path + "-calls")
        let store = try NotificationStore(path: path)
        #expect(store.olderCalls().map(\.id) == [3])
        #expect(store.olderCalls().first?.sender == ":1.8")
        store.record(storedNotification(3), wall: 1)
        store.commit()
        #expect(store.olderCalls().isEmpty)
        store.forgetOlderCalls()
        #expect(!FileManager.default.fileExists(atPath: path + "-calls"))
    }
}
