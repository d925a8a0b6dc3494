import CSQLite
import ChimeCore
import Foundation
import Testing
@testable import ChimeStore

@Suite struct NotificationStoreTests {
    let folder = temporaryFolder("store").path

    func notification(_ id: UInt32, app: String = "mail", summary: String = "s") -> ChimeCore.Notification {
        storedNotification(id, app: app, summary: summary)
    }

    @Test func sqliteKeepsNoMemoryStatistics() throws {
        // They cost a global mutex on each of SQLite's allocations; they are off only if the store
        // turned them off before SQLite started (its first open).
        let store = try NotificationStore(path: folder + "/chime.db")
        store.record(notification(1), wall: 1_000)
        #expect(sqlite3_memory_used() == 0)
    }

    /// A burst grows the WAL; once checkpointed, the next write starts it over at most 4 MB long,
    /// so the state folder does not keep the burst's size.
    @Test func theWALIsCutBackAfterACheckpoint() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        let body = String(repeating: "b", count: 60_000)
        for id in 1...300 {
            store.record(storedNotification(UInt32(id), body: body), wall: 1)
            if id % 50 == 0 { store.commit() }
        }
        func walSize() -> Int { (try? FileManager.default.attributesOfItem(atPath: folder + "/chime.db-wal")[.size] as? Int) ?? -1 }
        #expect(walSize() > NotificationStore.walLimit, "the burst grew it")
        store.checkpoint()
        store.record(storedNotification(301), wall: 1)
        store.commit()
        #expect(walSize() <= NotificationStore.walLimit)
    }

    @Test func eachRowKeepsItsOwnActions() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        let sets = [[Action(key: "default", label: "Open")], [Action(key: "reply", label: "Reply \"now\"")], [],
                    [Action(key: "default", label: "Open")]]
        for (index, actions) in sets.enumerated() {
            var notification = notification(UInt32(index + 1))
            notification.request.actions = actions
            store.record(notification, wall: 1)
        }
        let stored = (1...4).map { id in store.entry(UInt32(id)).flatMap { record($0)["actions"] } }
        #expect(stored == [.stringArray(["default", "Open"]), .stringArray(["reply", "Reply \"now\""]), .stringArray([]),
                           .stringArray(["default", "Open"])])
    }

    @Test func emptyTextIsStoredAsEmptyTextAndLongTextWhole() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        let long = String(repeating: "é long body ", count: 2_000)  // past one arena chunk
        store.record(storedNotification(1, summary: "", body: ""), wall: 1)
        store.record(storedNotification(2, summary: "x", body: long), wall: 1)
        let fields = { (id: UInt32) in store.entry(id).map { record($0) } ?? [:] }
        #expect(fields(1)["summary"] == .string("") && fields(1)["body"] == .string(""))
        #expect(fields(2)["body"] == .string(long))
    }

    @Test func aStatementRunInsideAnotherKeepsTheOuterOnesText() throws {
        let database = try SQLiteDatabase(path: folder + "/plain.db")
        try database.execute("CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('a'), ('b'), ('a');")
        var seen: [String] = []
        try database.run("SELECT name FROM t WHERE name = ?1 ORDER BY rowid", [.text("a")]) { row in
            seen.append(row.text(0) ?? "?")
            guard seen.count == 1 else { return }
            for _ in 0..<2 { try? database.run("INSERT INTO t VALUES (?1)", [.text("c")]) }
        }
        #expect(seen == ["a", "a"])
    }

    /// A statement run again with fewer values binds null to the rest, not the last run's values,
    /// whichever statement ran in between.
    @Test func parametersLeftUnboundAreNull() throws {
        let database = try SQLiteDatabase(path: folder + "/params.db")
        try database.execute("CREATE TABLE t (a TEXT, b INTEGER)")
        let insert = "INSERT INTO t VALUES (?1, ?2)"
        try database.run(insert, [.text("first"), .integer(1)])
        try database.run(insert, [.text("second")])
        try database.run("SELECT count(*) FROM t") { _ in }
        try database.run(insert, [.text("third"), .integer(3)])
        try database.run(insert, [])
        var rows: [String] = []
        try database.run("SELECT a, b FROM t ORDER BY rowid") { row in
            rows.append("\(row.text(0) ?? "null") \(row.text(1) ?? "null")")
        }
        #expect(rows == ["first 1", "second null", "third 3", "null null"])
    }

    @Test func recordsSurviveReopeningAndIdsContinue() throws {
        let path = folder + "/chime.db"
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(7, summary: "first"), wall: 1_000)
            store.record(notification(9, app: "chat", summary: "second"), wall: 2_000)
            store.recordClosed(7, reason: .dismissed, wall: 3_000)
        }
        let store = try NotificationStore(path: path)
        #expect(store.highestID() == 9)
        let all = store.history(.init())
        #expect(all.map { record($0)["summary"] } == [.string("second"), .string("first")])
        let first = record(all[1])
        #expect(first["state"] == .string("dismissed") && first["close-reason"] == .uint32(2))
        #expect(first["actions"] == .stringArray(["default", "Open"]))
        #expect(store.history(.init(app: "chat")).count == 1)
        #expect(store.history(.init(state: "dismissed")).count == 1)
        #expect(store.history(.init(limit: 1)).count == 1)
        var mode = stat()
        stat(path, &mode)
        #expect(mode.st_mode & 0o777 == 0o600)
    }

    @Test func aCorruptFileIsMovedAsideAndAFreshStoreMade() throws {
        let path = folder + "/chime.db"
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x42, count: 8192))
        var said: [String] = []
        let store = try NotificationStore(path: path) { _, message in said.append(message) }
        store.record(notification(1), wall: 1)
        #expect(said.count == 1 && said[0].contains("moved it to"))
        #expect(store.history(.init()).count == 1)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("chime.db.corrupt-") }
        #expect(aside.count == 1)
    }

    @Test func aVersion1FileIsMigratedAndKeepsItsRows() throws {
        let path = folder + "/chime.db"
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("BEGIN;\n" + StoreSchema.migrations[0] + "\nPRAGMA user_version = 1;\nCOMMIT;")
            try database.execute("""
                INSERT INTO notifications (id, app, app_name, summary, body, actions, level, urgency, state, sender, created, updated)
                VALUES (5, 'mail', 'Mail', 'old', 'b', '[]', 'active', 1, 'closed', ':1.1', 1, 1)
                """)
        }
        let store = try NotificationStore(path: path)
        let entry = try #require(store.entry(5).map { record($0) })
        #expect(entry["summary"] == .string("old") && entry["unread"] == .bool(false))
        var version: Int64 = 0
        try store.database.run("PRAGMA user_version") { version = $0.integer(0) }
        #expect(version == Int64(StoreSchema.version))
        store.record(notification(6), wall: 2)
        #expect(store.unread().map(\.id) == [6])
    }

    /// The store's page size and journal mode.
    func pages(_ store: NotificationStore) throws -> (size: Int64, journal: String?) {
        var size: Int64 = 0, journal: String?
        try store.sqlite.run("PRAGMA page_size") { size = $0.integer(0) }
        try store.sqlite.run("PRAGMA journal_mode") { journal = $0.text(0) }
        return (size, journal)
    }

    @Test func aNewStoreHasLargePagesAndAnOlderStoresSmallPagesAreRewrittenWithItsRowsKept() throws {
        #expect(try pages(NotificationStore(path: folder + "/new.db")) == (4096, "wal"))

        // A store as an older chimed left it: 1 KB pages, WAL mode, a row.
        let path = folder + "/chime.db"
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA page_size=1024; PRAGMA journal_mode=WAL;")
            try StoreSchema.migrate(database)
            try database.execute("""
                INSERT INTO notifications (id, app, app_name, summary, body, actions, level, urgency, state, sender, created, updated)
                VALUES (5, 'mail', 'Mail', 'old', 'b', '[]', 'active', 1, 'closed', ':1.1', 1, 1)
                """)
        }
        var said: [String] = []
        do {
            let store = try NotificationStore(path: path) { _, message in said.append(message) }
            #expect(try pages(store) == (4096, "wal"))
            #expect(store.entry(5).map { record($0)["summary"] } == .string("old"))
            store.record(notification(6), wall: 2)
            store.commit()
        }
        let store = try NotificationStore(path: path) { _, message in said.append(message) }
        #expect(try pages(store) == (4096, "wal"))
        #expect(store.history(.init()).count == 2)
        #expect(said.isEmpty)
    }

    @Test func pagesThatCannotBeRewrittenStayAsTheyWereAndTheStoreGoesOn() throws {
        var said: [String] = []
        let store = try NotificationStore(path: folder + "/chime.db") { _, message in said.append(message) }
        store.record(notification(1), wall: 1)
        store.commit()
        store.resizePages(to: 1024)  // as an older chimed left it
        #expect(try pages(store) == (1024, "wal"))
        // SQLite refuses to leave WAL mode or VACUUM inside a transaction.
        try store.sqlite.execute("BEGIN")
        store.resizePages()
        try store.sqlite.execute("COMMIT")
        #expect(said.count == 1 && said[0].contains("keeps its 1024-byte ones"), "\(said)")
        #expect(try pages(store) == (1024, "wal"))
        store.record(notification(2), wall: 2)
        store.commit()
        store.resizePages()
        #expect(try pages(store) == (4096, "wal"))
        #expect(store.history(.init()).count == 2 && said.count == 1)
    }

    /// A store that cannot be opened at all (here its path is a folder; for people, a file they
    /// may not write or a folder that cannot be made) is not a damaged one: it is left where it
    /// is, and the error says why, for chimed to run without history.
    @Test func aStoreThatCannotBeOpenedIsLeftWhereItIs() throws {
        let path = folder + "/chime.db"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var said: [String] = []
        #expect(throws: StoreError.self) { _ = try NotificationStore(path: path) { _, message in said.append(message) } }
        #expect(said.isEmpty, "\(said)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue, "not moved aside")
        let underAFile = folder + "/file"
        _ = FileManager.default.createFile(atPath: underAFile, contents: Data("x".utf8))
        #expect(throws: StoreError.self) { _ = try NotificationStore(path: underAFile + "/chime.db") { _, message in said.append(message) } }
        #expect(said.isEmpty, "\(said)")
    }

    @Test func aFileFromANewerChimedIsRefusedNotMisread() throws {
        let path = folder + "/chime.db"
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA user_version = 99")
        }
        var said: [String] = []
        _ = try NotificationStore(path: path) { _, message in said.append(message) }
        #expect(said.first?.contains("newer than this chimed") == true, "moved aside with the reason, the old file kept")
    }

    @Test func heldAndSnoozedComeBackAsTheyWere() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        var held = notification(1, summary: "held")
        held.state = .heldByFocus("work")
        held.request.hints.relevance = 0.8
        var snoozed = notification(2, summary: "snoozed")
        snoozed.state = .snoozed(until: 99_000)
        snoozed.request.hints.category = "email"
        snoozed.repeatCount = 3
        store.record(held, wall: 1)
        store.record(snoozed, wall: 1)
        store.record(notification(3), wall: 1)
        let back = store.held()
        #expect(back.map(\.id) == [1, 2])
        #expect(back[0].state == .heldByFocus("work") && back[0].request.hints.relevance == 0.8)
        #expect(back[1].request.hints.relevance == nil)
        #expect(back[1].state == .snoozed(until: 99_000) && back[1].repeatCount == 3)
        #expect(back[1].request.hints.category == "email" && back[1].request.actions == [Action(key: "default", label: "Open")])
        #expect(back[1].sender == ":1.1")
    }

    /// The hints that present a notification again as it came are kept in one JSON object,
    /// and none at all for a notification that sent none of them.
    @Test func theHintsThatPresentItAgainAreKept() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        var full = notification(1, summary: "full")
        full.request.hints.imagePath = "/tmp/a \"quoted\" picture.png"
        full.request.hints.soundName = "message-new-email"
        full.request.hints.soundFile = "/tmp/ding.oga"
        full.request.hints.suppressSound = true
        full.request.hints.actionIcons = true
        full.request.hints.progress = 42
        full.request.hints.replyPlaceholder = "Reply…"
        full.request.hints.replySubmitText = "Send"
        full.request.hints.hiddenPreviewBody = "A letter"
        full.request.hints.destructiveActions = ["delete", "spam"]
        store.record(full, wall: 1)
        store.record(notification(2, summary: "plain"), wall: 1)
        let back = try #require(store.notification(1)).request.hints
        for (name, same) in [("image-path", back.imagePath == full.request.hints.imagePath), ("sound-name", back.soundName == "message-new-email"),
                             ("sound-file", back.soundFile == "/tmp/ding.oga"), ("suppress-sound", back.suppressSound),
                             ("action-icons", back.actionIcons), ("value", back.progress == 42),
                             ("reply", back.replyPlaceholder == "Reply…" && back.replySubmitText == "Send"),
                             ("hidden-preview-body", back.hiddenPreviewBody == "A letter"),
                             ("destructive-actions", back.destructiveActions == ["delete", "spam"])] {
            #expect(same, "\(name)")
        }
        let plain = try #require(store.notification(2)).request.hints
        #expect(plain.imagePath == nil && !plain.suppressSound && plain.progress == nil && plain.destructiveActions.isEmpty)
        var stored: [String] = []
        try store.database.run("SELECT coalesce(hints, 'NULL') FROM notifications ORDER BY id") { stored.append($0.text(0) ?? "") }
        #expect(stored.last == "NULL")
    }

    @Test func readAndClosedStatesFollowTheUser() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        for id in 1...3 { store.record(notification(UInt32(id)), wall: 1) }
        store.markRead(1, dismissed: false, wall: 2)
        store.recordClosed(1, reason: .expired, wall: 3)
        store.recordClosed(2, reason: .expired, wall: 3)
        store.recordClosed(3, reason: .closedByCall, wall: 3)
        let states = store.history(.init()).map { entry in
            let fields = record(entry)
            return "\(fields["state"]?.string ?? "") \(fields["unread"]?.bool ?? false)"
        }
        #expect(states == ["closed false", "closed true", "read false"], "read stays read; a timed-out banner stays unread")
        #expect(store.history(.init(state: "unread")).count == 1)
    }

    /// chimed sends a turn's replies only after `commit`: before it, nothing the turn changed is
    /// on disk.
    @Test func heldWritesReachTheFileOnlyAtCommit() throws {
        let path = folder + "/chime.db"
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(1), wall: 0)
            store.record(notification(2), wall: 0)
            store.commit()
            #expect(store.holdCommits())
            store.markRead(1, dismissed: false, wall: 1)
            #expect(!store.holdCommits(), "one transaction at a time")
            #expect(store.commit())
            store.holdCommits()
            store.markRead(2, dismissed: false, wall: 1)
            store.record(notification(3), wall: 1)
        }  // closed with the second turn not committed, as by a crash before the turn's end
        let states = try NotificationStore(path: path).history(.init()).map { record($0)["state"] }
        #expect(states == [.string("presented"), .string("read")])
    }

    /// A disk that fills (here SQLite's page limit, which fails as a full disk does, SQLITE_FULL):
    /// the turn's commit says it kept nothing, and nothing of it is kept, so chimed refuses what
    /// it promised; once there is room, the next commit keeps its turn, and history is said kept
    /// again once the file itself has taken the log (a checkpoint).
    @Test func aCommitOnAFullDiskKeepsNothingOfItsTurnAndSaysSo() throws {
        let store = try NotificationStore(path: folder + "/full.db")
        var said: [String?] = []
        store.keptChanged = { said.append($0) }
        store.record(notification(1), wall: 0)
        #expect(store.commit())
        var pages: Int64 = 0
        try store.sqlite.run("PRAGMA page_count") { pages = $0.integer(0) }
        try store.sqlite.execute("PRAGMA max_page_count=\(pages)")
        store.holdCommits()
        for id in 2...40 { store.record(notification(UInt32(id), summary: String(repeating: "x", count: 2_000)), wall: 0) }
        #expect(!store.commit(), "not kept")
        #expect(store.notKept?.contains("is full") == true)
        #expect(store.ids(app: nil) == [1], "nothing of the turn")
        try store.sqlite.execute("PRAGMA max_page_count=100000")
        store.holdCommits()
        store.record(notification(41), wall: 0)
        #expect(store.commit())
        #expect(store.notKept != nil && said.count == 1)
        store.checkpoint()
        #expect(store.notKept == nil && said.count == 2 && said.last == .some(nil))
        #expect(store.ids(app: nil) == [1, 41])
    }

    /// A write that failed outside any turn (a prune or a checkpoint while the disk was full) is
    /// not the next turn's: once there is room, that turn's commit keeps it.
    @Test func aFailureOutsideATurnDoesNotRefuseTheNextOne() throws {
        let store = try NotificationStore(path: folder + "/outside.db")
        store.record(notification(1), wall: 0)
        #expect(store.commit())
        var pages: Int64 = 0
        try store.sqlite.run("PRAGMA page_count") { pages = $0.integer(0) }
        try store.sqlite.execute("PRAGMA max_page_count=\(pages)")
        for id in 2...40 { store.record(notification(UInt32(id), summary: String(repeating: "x", count: 2_000)), wall: 0) }
        try store.sqlite.execute("PRAGMA max_page_count=100000")
        store.holdCommits()
        store.record(notification(41), wall: 0)
        #expect(store.commit(), "the turn's own writes all succeeded")
        #expect(store.ids(app: nil).contains(41))
    }

    @Test func pruningKeepsTheNewestAndWhatIsHeldInShortBatches() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        var held = notification(1)
        held.state = .heldForSummary
        store.record(held, wall: 0)
        store.holdCommits()
        for id in 2...30 { store.record(notification(UInt32(id)), wall: Int64(id) * 1_000) }
        store.commit()
        var deleted = store.prune(maximumEntries: 10, cutoff: 0, limit: 8)
        #expect(deleted == Array(2...9))
        deleted = store.prune(maximumEntries: 10, cutoff: 0, limit: 8)
        #expect(deleted == Array(10...17))
        deleted = store.prune(maximumEntries: 10, cutoff: 0, limit: 8)
        #expect(deleted == Array(18...20), "down to the newest ten and the held one")
        #expect(store.ids(app: nil) == [1] + Array(21...30))
        deleted = store.prune(maximumEntries: 100, cutoff: 25_000, limit: 100)
        #expect(deleted == Array(21...24), "older than the cutoff")
    }

    /// A batch is deleted over the range of its ids: one held or snoozed in that range, or one
    /// newer than the cutoff, stays and is not reported.
    @Test func whatIsHeldAmidAPrunedBatchStays() throws {
        let store = try NotificationStore(path: folder + "/amid.db")
        store.holdCommits()
        for id in 1...12 {
            var entry = notification(UInt32(id))
            if id == 4 { entry.state = .snoozed(until: 99_000) }
            store.record(entry, wall: id == 6 ? 50_000 : Int64(id) * 1_000)
        }
        store.commit()
        #expect(store.prune(maximumEntries: 100, cutoff: 10_000, limit: 100) == [1, 2, 3, 5, 7, 8, 9])
        #expect(store.ids(app: nil) == [4, 6, 10, 11, 12])
    }

    /// Each batch adds to its day's row; days past those kept are forgotten as newer ones come.
    @Test func activityAddsUpPerDayAndForgetsOldDays() throws {
        let store = try NotificationStore(path: folder + "/chime.db")
        store.addActivity([.init(day: 100, app: "mail"): ActivityCounts(banners: 2, sounds: 1)], names: ["mail": "Mail"], keepingDays: 30)
        store.addActivity([.init(day: 100, app: "mail"): ActivityCounts(banners: 1, held: 3),
                           .init(day: 101, app: "chat"): ActivityCounts(quiet: 1)], names: [:], keepingDays: 30)
        store.commit()
        #expect(store.activity(since: 0) == [
            .init(day: 100, app: "mail", name: "Mail", counts: ActivityCounts(banners: 3, sounds: 1, held: 3)),
            .init(day: 101, app: "chat", name: "chat", counts: ActivityCounts(quiet: 1)),
        ])
        #expect(store.activity(since: 101).map(\.app) == ["chat"])
        store.addActivity([.init(day: 131, app: "chat"): ActivityCounts(banners: 1)], names: [:], keepingDays: 30)
        store.commit()
        #expect(store.activity(since: 0).map(\.day) == [101, 131], "day 100 is more than 30 days before 131")
    }
}
