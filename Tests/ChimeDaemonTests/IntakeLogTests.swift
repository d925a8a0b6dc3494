import ChimeCore
import Foundation
import Glibc
import Testing
@testable import ChimeStore

/// The intake log: a recorded notification survives a crash before SQLite took it, is put in
/// once, in order with what changed it, and a damaged log loses only its damaged tail.
@Suite struct IntakeLogTests {
    let folder = temporaryFolder("intake").path
    var path: String { folder + "/chime.db" }

    /// Text beyond ASCII, so the log's lengths are bytes, not characters.
    func notification(_ id: UInt32, summary: String = "s") -> ChimeCore.Notification {
        storedNotification(id, summary: summary, body: "b é \u{1F514}")
    }

    func field(_ name: String, of id: UInt32, in store: NotificationStore) -> BusValue? {
        store.entry(id).flatMap { record($0)[name] }
    }

    @Test func aRecordedNotificationSurvivesACrashBeforeSQLiteTookIt() throws {
        var said: [String] = []
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(1), wall: 1)
            store.commit()
            store.record(notification(2, summary: "only in the log"), wall: 2)
            store.commitTransaction()  // the turn ends: its reply goes
            #expect(try store.sqlite.count() == 1, "SQLite has not taken it yet")
        }  // dropped without a commit, as by kill -9 after the reply
        let store = try NotificationStore(path: path) { _, message in said.append(message) }
        #expect(store.ids(app: nil) == [1, 2])
        #expect(field("summary", of: 2, in: store) == .string("only in the log"))
        #expect(field("body", of: 2, in: store) == .string("b é \u{1F514}"))
        #expect(field("actions", of: 2, in: store) == .stringArray(["default", "Open"]))
        #expect(said == ["put 1 notification(s) into the center from \(path)-intake, which chimed had acknowledged before it stopped"])
        #expect(store.highestID() == 2, "ids continue past it")
    }

    @Test func whatReadsOrChangesTheStoreSeesWhatWasRecordedFirst() throws {
        let store = try NotificationStore(path: path)
        store.record(notification(1), wall: 1)
        #expect(store.contains(1))
        store.record(notification(2), wall: 1)
        store.holdCommits()
        store.recordClosed(2, reason: .dismissed, wall: 2)
        store.commitTransaction()
        #expect(field("state", of: 2, in: store) == .string("dismissed"))
        #expect(try store.sqlite.count() == 2, "the close came after the row it closes")
    }

    @Test func aRowAlreadyTakenIsNotPutInAgainOverLaterChanges() throws {
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(1), wall: 1)
            store.commit()
            store.recordClosed(1, reason: .dismissed, wall: 2)
        }  // the log still holds row 1 as first recorded: it is emptied only at a checkpoint
        let store = try NotificationStore(path: path)
        #expect(field("state", of: 1, in: store) == .string("dismissed"))
    }

    /// An app's CloseNotification a moment after its Notify: the row is still in the intake, so
    /// the closed row follows it there and the reply waits for no SQLite; both survive a crash.
    @Test func aCloseOfARowStillInTheIntakeFollowsItThere() throws {
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(1), wall: 1)
            store.record(notification(2), wall: 1)
            store.record(notification(3), wall: 1)
            store.commitTransaction()  // the Notify calls' turn
            store.holdCommits()
            store.recordClosed(1, reason: .closedByCall, wall: 2)
            store.recordClosed(2, reason: .expired, wall: 2)
            store.commitTransaction()  // the close's turn: its reply goes
            #expect(try store.sqlite.count() == 0, "nothing waited for SQLite")
        }  // dropped without a commit, as by kill -9 after the reply
        let store = try NotificationStore(path: path)
        #expect(field("state", of: 1, in: store) == .string("closed"))
        #expect(field("unread", of: 1, in: store) == .bool(false), "closed by the app: read")
        #expect(field("close-reason", of: 1, in: store) == .uint32(3))
        #expect(field("state", of: 2, in: store) == .string("closed"))
        #expect(field("unread", of: 2, in: store) == .bool(true), "a banner that timed out stays unread")
        #expect(field("close-reason", of: 2, in: store) == .uint32(1))
        #expect(field("created", of: 2, in: store) == .int64(1), "created when it came")
        #expect(field("updated", of: 2, in: store) == .int64(2))
        #expect(field("state", of: 3, in: store) == .string("presented"))
        #expect(field("close-reason", of: 3, in: store) == nil)
    }

    /// A row changed in SQLite after it came (read, here) is closed there too, not from the
    /// intake's copy of it, which does not know it was read.
    @Test func aCloseAfterAChangeInTheSameTurnKeepsTheChange() throws {
        let store = try NotificationStore(path: path)
        store.holdCommits()
        store.record(notification(1), wall: 1)
        store.markRead(1, dismissed: false, wall: 2)
        store.recordClosed(1, reason: .expired, wall: 3)
        store.commitTransaction()
        #expect(field("state", of: 1, in: store) == .string("read"), "read stays read")
        #expect(field("unread", of: 1, in: store) == .bool(false))
        #expect(field("close-reason", of: 1, in: store) == .uint32(1))
    }

    /// Rows logged by a chimed from before rows carried their close reason (23 values) still go
    /// in, and take no reason from the row put in before them by the same statement.
    @Test func aRowLoggedWithoutACloseReasonStillGoesIn() throws {
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(1), wall: 1)
            store.commitTransaction()
            store.holdCommits()
            store.recordClosed(1, reason: .expired, wall: 2)  // a closed row with reason 1, in the intake
            let older = store.row(notification(2), wall: 3).dropLast(5)  // no close reason, relevance, kept hints, reasons or facts
            #expect(older.count == 23)
            store.intakeLog?.append(Array(older), sequence: store.nextIntakeSequence)
            store.commitTransaction()
            #expect(try store.sqlite.count() == 0, "all three rows wait in the log")
        }  // dropped without a commit, as by kill -9
        let store = try NotificationStore(path: path)
        #expect(store.ids(app: nil) == [1, 2])
        #expect(field("close-reason", of: 1, in: store) == .uint32(1))
        #expect(field("close-reason", of: 2, in: store) == nil, "its reason was not bound from the row before")
    }

    @Test func aCheckpointEmptiesTheLogAndSequenceNumbersGoOn() throws {
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(1), wall: 1)
            store.checkpoint()
            #expect(loggedSequences() == [])
            store.record(notification(2), wall: 2)
            store.commitTransaction()
            #expect(loggedSequences() == [2])
        }
        #expect(try NotificationStore(path: path).ids(app: nil) == [1, 2])
        do {
            let store = try NotificationStore(path: path)
            #expect(loggedSequences() == [], "emptied once SQLite took what it held")
            store.record(notification(3), wall: 3)
            store.commitTransaction()
        }
        #expect(try NotificationStore(path: path).ids(app: nil) == [1, 2, 3])
    }

    @Test func rowsAFailedCommitDidNotTakeWaitForTheNextOne() throws {
        var said: [String] = []
        let store = try NotificationStore(path: path) { _, message in said.append(message) }
        store.record(notification(1), wall: 1)
        store.commit()
        // SQLite's own "disk full": no page beyond those the file has now.
        var pages: Int64 = 0
        try store.sqlite.run("PRAGMA page_count") { pages = $0.integer(0) }
        try store.sqlite.execute("PRAGMA max_page_count = \(pages)")
        for id in 2...40 { store.record(notification(UInt32(id), summary: String(repeating: "long ", count: 100)), wall: 2) }
        store.commit()
        #expect(said.contains { $0.contains("is full") }, "\(said)")
        #expect(store.intake.count == 39, "kept for the next commit")
        store.checkpoint()
        #expect(loggedSequences().count == 40, "the log is kept while SQLite lacks its rows")
        try store.sqlite.execute("PRAGMA max_page_count = 1000000")
        store.commit()
        #expect(store.intake.isEmpty)
        #expect(store.ids(app: nil) == Array(1...40))
        store.checkpoint()
        #expect(loggedSequences() == [])
    }

    @Test func aTurnsRowsReachTheLogTogetherBeforeItsReplies() throws {
        do {
            let store = try NotificationStore(path: path)
            for id in 1...3 { store.record(notification(UInt32(id)), wall: 1) }
            #expect(loggedSequences() == [], "nothing written during the turn")
            store.commitTransaction()  // the turn's end, before its replies
            #expect(loggedSequences() == [1, 2, 3])
            store.record(notification(4), wall: 2)
        }  // killed before the next turn ended: its Notify was never answered
        #expect(try NotificationStore(path: path).ids(app: nil) == [1, 2, 3])
    }

    @Test func whenTheLogCannotTakeATurnsRowsSQLiteTakesThemBeforeTheReplies() throws {
        var said: [String] = []
        do {
            let store = try NotificationStore(path: path) { _, message in said.append(message) }
            store.record(notification(1), wall: 1)
            store.commitTransaction()
            // The disk is now full, and the turn's rows need more of the log than it has: its
            // space cannot grow (mapped), and a write fails as one to a full disk does (written).
            store.intakeLog!.allocate = { _, _, _ in ENOSPC }
            let full = open("/dev/full", O_WRONLY)
            #expect(dup2(full, store.intakeLog!.descriptor) >= 0)
            close(full)
            store.record(notification(2, summary: String(repeating: "long ", count: 20_000)), wall: 2)
            store.record(notification(3), wall: 2)
            store.commitTransaction()
            #expect(try store.sqlite.count() == 3, "the rows before the failed write too, in order")
            #expect(store.intake.isEmpty)
            #expect(loggedSequences() == [1], "none of the turn's rows is in the log")
        }
        #expect(said.count == 1 && said[0].contains("is full"), "\(said)")
        #expect(try NotificationStore(path: path).ids(app: nil) == [1, 2, 3])
    }

    /// A relevance (a real number) goes through the log as it is; a row an older chimed logged,
    /// without one, still goes in.
    @Test func relevanceSurvivesTheLogAndOlderRowsWithoutItGoIn() throws {
        do {
            let store = try NotificationStore(path: path)
            var held = notification(1, summary: "held")
            held.state = .heldForSummary
            held.request.hints.relevance = 0.25
            store.record(held, wall: 1)
            var older = notification(2, summary: "older")
            older.state = .heldForSummary
            older.request.hints.relevance = 0.5
            store.intakeLog!.append(Array(store.row(older, wall: 2).dropLast(4)), sequence: 2)  // no relevance, kept hints, reasons or facts
            store.commitTransaction()
        }
        let back = try NotificationStore(path: path).held()
        #expect(back.map(\.request.summary) == ["held", "older"])
        #expect(back.map(\.request.hints.relevance) == [0.25, nil])
    }

    @Test func aDamagedTailLosesOnlyItself() throws {
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(1), wall: 1)
            store.record(notification(2), wall: 2)
            store.commitTransaction()
        }
        let log = path + "-intake"
        let intact = IntakeLog(path: log)!.size
        #expect(intact > 0)
        // A third record cut short, then garbage, after the two.
        do {
            let store = try NotificationStore(path: folder + "/other.db")
            store.record(notification(3), wall: 3)
            store.commitTransaction()
        }
        let third = try Data(contentsOf: URL(fileURLWithPath: folder + "/other.db-intake"))
        let thirdRecord = third.prefix(IntakeLog(path: folder + "/other.db-intake")!.size)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.seek(toOffset: UInt64(intact))
        handle.write(thirdRecord.prefix(thirdRecord.count - 5))
        handle.write(Data(repeating: 0x41, count: 100))
        try handle.close()
        #expect(try NotificationStore(path: path).ids(app: nil) == [1, 2])
    }

    /// A log left by a chimed that stopped (zeros or a record cut short after its last whole
    /// record) takes new records right after that one, so they are found at the next start.
    @Test func newRecordsGoAfterTheLastWholeOne() throws {
        do {
            let log = IntakeLog(path: path + "-intake")!
            log.append([.integer(1), .text("first")], sequence: 1)
            #expect(log.flush())
            log.append([.integer(2), .text("cut short")], sequence: 2)
            #expect(log.flush())
        }
        // The second record loses its last byte, as if the process died copying it.
        let whole = IntakeLog(path: path + "-intake")!.size
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path + "-intake"))
        bytes[whole - 1] ^= 0xff
        try bytes.write(to: URL(fileURLWithPath: path + "-intake"))
        do {
            let log = IntakeLog(path: path + "-intake")!
            #expect(log.records().map(\.sequence) == [1])
            log.append([.integer(3), .text("after")], sequence: 3)
            #expect(log.flush())
        }
        #expect(loggedSequences() == [1, 3])
    }

    /// Past the mapped part of the file (256 KB) the log maps the next; emptied, it starts again.
    @Test func aLogLongerThanItsMappingKeepsEveryRecord() throws {
        let log = IntakeLog(path: path + "-intake")!
        let text = String(repeating: "x", count: 700)
        for sequence in 1...1_000 {
            log.append([.integer(Int64(sequence)), .text(text)], sequence: Int64(sequence))
            if sequence % 3 == 0 { #expect(log.flush()) }
            if sequence % 7 == 0 { log.makeRoomAhead() }
        }
        #expect(log.flush())
        #expect(log.size > 2 * IntakeLog.windowLength)
        #expect(loggedSequences() == Array(1...1_000))
        log.clear()
        #expect(loggedSequences() == [])
        log.append([.integer(1), .text("again")], sequence: 1_001)
        #expect(log.flush())
        #expect(loggedSequences() == [1_001])
    }

    /// On a file system where a write through the mapping could need new space (copy-on-write),
    /// records go by write(2): at the end of the whole ones, and none of a write that fell short.
    @Test func withoutAMappingRecordsAreWrittenAndAFullDiskLeavesNoneOfAWrite() throws {
        do {
            let log = IntakeLog(path: path + "-intake", mapped: { _ in false })!
            log.append([.integer(1), .text("first")], sequence: 1)
            log.append([.integer(2), .text("second")], sequence: 2)
            #expect(log.flush())
            #expect(lseek(log.descriptor, 0, SEEK_END) == log.size, "no space allocated ahead")
            let full = open("/dev/full", O_WRONLY)
            #expect(dup2(full, log.descriptor) >= 0)
            close(full)
            log.append([.integer(3), .text("lost to the full disk")], sequence: 3)
            #expect(!log.flush())
            #expect(log.failure == ENOSPC)
        }
        #expect(loggedSequences() == [1, 2])
        let log = IntakeLog(path: path + "-intake", mapped: { _ in false })!
        log.append([.integer(4), .text("after")], sequence: 4)
        #expect(log.flush())
        #expect(loggedSequences() == [1, 2, 4])
    }

    /// Mapped only where a block written once never needs space again.
    @Test func onlyFileSystemsThatKeepWrittenBlocksAreMapped() {
        let proc = open("/proc/self/status", O_RDONLY)
        defer { close(proc) }
        #expect(!IntakeLog.reservesBlocksOnWrite(proc))
        let shm = open("/dev/shm", O_RDONLY | O_DIRECTORY)
        defer { close(shm) }
        #expect(shm < 0 || IntakeLog.reservesBlocksOnWrite(shm), "tmpfs")
    }

    /// The sequence numbers of the records in the log's file, as the next start reads them.
    func loggedSequences() -> [Int64] {
        IntakeLog(path: path + "-intake")?.records().map(\.sequence) ?? []
    }

    @Test func aFlippedByteEndsTheLogThere() throws {
        let log = IntakeLog(path: path + "-intake")!
        log.append([.integer(1), .text("first"), .null], sequence: 1)
        #expect(log.flush())
        let first = log.size
        log.append([.integer(2), .text("second"), .null], sequence: 2)
        #expect(log.flush())
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path + "-intake"))
        var damaged = bytes
        damaged[first + 20] ^= 0xff
        try damaged.write(to: URL(fileURLWithPath: path + "-intake"))
        let records = IntakeLog(path: path + "-intake")!.records()
        #expect(records.map(\.sequence) == [1])
        #expect(records.first?.values.count == 3)
    }

    @Test func withoutALogRowsGoStraightToSQLite() throws {
        // A folder where the log would be: it cannot be opened.
        try FileManager.default.createDirectory(atPath: path + "-intake", withIntermediateDirectories: true)
        var said: [String] = []
        do {
            let store = try NotificationStore(path: path) { _, message in said.append(message) }
            store.holdCommits()
            store.record(notification(1), wall: 1)
            store.commitTransaction()
        }
        #expect(said.count == 1 && said[0].contains("written to the store before each reply"))
        #expect(try NotificationStore(path: path).ids(app: nil) == [1])
    }
}

extension SQLiteDatabase {
    /// Rows in the notifications table, as SQLite holds them (not through the store's intake).
    func count() throws -> Int64 {
        var count: Int64 = 0
        try run("SELECT count(*) FROM notifications") { count = $0.integer(0) }
        return count
    }
}
