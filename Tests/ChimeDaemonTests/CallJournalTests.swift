import Foundation
import Testing
@testable import ChimeStore

/// The journal of calls answered before they were handled: what a restart must handle again is
/// every call kept after the last mark of the main thread's progress, bytes as they were.
@Suite struct CallJournalTests {
    let path = temporaryFolder("calls").path + "/chime.db-calls"

    /// The length the file's first record says it has: 0 where the log is empty (zeros follow
    /// its records, allocated ahead).
    func firstRecordLength() throws -> UInt32 {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4)
        return bytes.count < 4 ? 0 : bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    @Test func whatFollowsTheLastSettledCallIsHandledAgain() throws {
        do {
            let journal = try #require(CallJournal(path: path))
            #expect(journal.keep(id: 5, sender: ":1.7", wall: 1_000, bytes: [0, 255, 10, 13]) == 1)
            #expect(journal.keep(id: 6, sender: ":1.7", wall: 1_001, bytes: []) == 2)
            journal.settle(through: 1)
            #expect(journal.keep(id: 9, sender: ":1.8", wall: 1_002, bytes: Array(repeating: 0xAB, count: 70_000)) == 3)
        }
        let reopened = try #require(CallJournal(path: path))
        let calls = reopened.unsettled()
        #expect(calls.map(\.id) == [6, 9])
        #expect(calls.map(\.sender) == [":1.7", ":1.8"] && calls.map(\.wall) == [1_001, 1_002])
        #expect(calls[0].bytes.isEmpty && calls[1].bytes == Array(repeating: 0xAB, count: 70_000))
        #expect(reopened.keep(id: 10, sender: ":1.9", wall: 1_003, bytes: [1]) == 4, "numbers go on after a restart")
        reopened.clear()
        #expect(reopened.unsettled().isEmpty)
    }

    @Test func aSettledJournalIsEmptiedOnlyOnceItHasGrown() throws {
        let journal = try #require(CallJournal(path: path))
        for id in 1...3 { _ = journal.keep(id: UInt32(id), sender: ":1.1", wall: 0, bytes: [1, 2, 3]) }
        journal.settle(through: 3)
        journal.tidy()
        #expect(try firstRecordLength() > 0, "small: kept as it is")
        for id in 4...CallJournal.tidyRecords { _ = journal.keep(id: UInt32(id), sender: ":1.1", wall: 0, bytes: [1]) }
        journal.tidy()
        #expect(journal.unsettled().count == CallJournal.tidyRecords - 3, "not settled: kept")
        #expect(try firstRecordLength() > 0)
        journal.settle(through: Int64(CallJournal.tidyRecords))
        journal.tidy()
        #expect(try firstRecordLength() == 0, "emptied: zeros allocated ahead, no record")
        #expect(journal.unsettled().isEmpty)
        #expect(CallJournal(path: path)?.unsettled().isEmpty == true)
    }

    /// A few large calls grow the log past a megabyte long before a thousand records: a settled
    /// log that large is emptied too, so what a restart reads stays small.
    @Test func aSettledJournalPastAMegabyteIsEmpted() throws {
        let journal = try #require(CallJournal(path: path))
        for id in 1...5 { _ = journal.keep(id: UInt32(id), sender: ":1.1", wall: 0, bytes: Array(repeating: 7, count: 250_000)) }
        journal.settle(through: 5)
        journal.tidy()
        #expect(try firstRecordLength() == 0)
        #expect(CallJournal(path: path)?.unsettled().isEmpty == true)
    }
}
