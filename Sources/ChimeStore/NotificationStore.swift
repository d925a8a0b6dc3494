import CSQLite
import ChimeCore
import Glibc

/// The notification center on disk: one SQLite file (mode 0600) in WAL mode, written on the
/// bus thread before the reply, so what chimed acknowledged survives `kill -9` (a WAL commit
/// with synchronous=NORMAL is a write(2), not an fsync). The file is held exclusively: commits
/// skip the shared-memory locking, and a second chimed is refused.
public final class NotificationStore {
    static let schemaVersion = 1
    private let database: SQLiteDatabase
    public let path: String
    /// Where problems are said: chimed's log, once per kind of failure.
    private let report: (_ key: String, _ message: String) -> Void

    /// Opens or creates the store; an unreadable file is moved aside and a fresh one made.
    public init(path: String, report: @escaping (_ key: String, _ message: String) -> Void = { _, _ in }) throws(StoreError) {
        self.path = path
        self.report = report
        if let slash = path.lastIndex(of: "/") { Self.makeFolders(String(path[..<slash])) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        do {
            database = try Self.openAndMigrate(path)
        } catch where error.isLocked {
            throw StoreError("another chimed is using \(path)", code: error.code)
        } catch {
            let aside = path + ".corrupt-\(time(nil))"
            rename(path, aside)
            unlink(path + "-wal")
            unlink(path + "-shm")
            report("corrupt", "\(path) could not be read (\(error)); moved it to \(aside) and started a new one")
            database = try Self.openAndMigrate(path)
        }
        chmod(path, 0o600)
    }

    /// Copies the write-ahead log into the database. It fsyncs, so chimed calls it from an idle
    /// moment every few seconds instead of letting a commit inside Notify do it.
    public func checkpoint() {
        attempt("checkpoint") { () throws(StoreError) in try database.execute("PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// mkdir -p, each new folder private to the user.
    static func makeFolders(_ path: String) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            _ = mkdir(prefix, 0o700)
        }
    }

    private static func openAndMigrate(_ path: String) throws(StoreError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        // WAL with synchronous=NORMAL: a commit is a write(2) to the log, never an fsync; the log
        // is copied into the database (with its fsync) by `checkpoint()`, not inside a commit.
        // Small pages: a commit writes whole pages to the log, and a notification row is small.
        try database.execute("PRAGMA page_size=1024; PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;")
        var version: Int64 = 0
        try database.run("PRAGMA user_version") { version = $0.integer(0) }
        if version < 1 {
            try database.execute("""
                BEGIN;
                CREATE TABLE notifications (
                    id INTEGER PRIMARY KEY,
                    app TEXT NOT NULL,
                    app_name TEXT NOT NULL,
                    summary TEXT NOT NULL,
                    body TEXT NOT NULL,
                    actions TEXT NOT NULL,
                    category TEXT,
                    thread TEXT,
                    level TEXT NOT NULL,
                    urgency INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    close_reason INTEGER,
                    sender TEXT NOT NULL,
                    created INTEGER NOT NULL,
                    updated INTEGER NOT NULL
                );
                PRAGMA user_version = 1;
                COMMIT;
                """)
        } else if version > schemaVersion {
            throw StoreError("the store has schema version \(version), newer than this chimed (\(schemaVersion))")
        }
        // Reading the table proves the file is a database and not garbage.
        try database.run("SELECT count(*) FROM notifications")
        return database
    }

    /// The highest id ever stored, so ids continue past it after a restart.
    public func highestID() -> UInt32 {
        var highest: Int64 = 0
        try? database.run("SELECT coalesce(max(id), 0) FROM notifications") { highest = $0.integer(0) }
        return UInt32(clamping: highest)
    }

    /// Records a notification as it now stands (new, or replaced in place).
    public func record(_ notification: Notification, wall: Int64) {
        let request = notification.request
        let actions = JSONText.encode(.stringArray(request.actions.flatMap { [$0.key, $0.label] }))
        let level = (notification.decision?.level ?? InterruptionPolicy.requestedLevel(request)).rawValue
        let thread = request.hints.thread ?? request.hints.stackTag ?? request.appIdentity
        attempt("record") { () throws(StoreError) in
            try database.run("""
                INSERT INTO notifications (id, app, app_name, summary, body, actions, category, thread, level, urgency,
                                           state, sender, created, updated)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)
                ON CONFLICT(id) DO UPDATE SET app=?2, app_name=?3, summary=?4, body=?5, actions=?6, category=?7,
                    thread=?8, level=?9, urgency=?10, state=?11, sender=?12, updated=?13, close_reason=NULL
                """, [.integer(Int64(notification.id)), .text(request.appIdentity), .text(request.appName),
                      .text(request.summary), .text(request.body), .text(actions),
                      request.hints.category.map { .text($0) } ?? .null, .text(thread), .text(level),
                      .integer(Int64(notification.urgency.rawValue)), .text(notification.state.name),
                      .text(notification.sender), .integer(wall)])
        }
    }

    public func recordClosed(_ id: UInt32, reason: CloseReason, wall: Int64) {
        let state = reason == .dismissed ? "dismissed" : "closed"
        attempt("update") { () throws(StoreError) in
            try database.run("UPDATE notifications SET state=?2, close_reason=?3, updated=?4 WHERE id=?1",
                             [.integer(Int64(id)), .text(state), .integer(Int64(reason.rawValue)), .integer(wall)])
        }
    }

    public struct Filter: Sendable {
        public var app: String?
        public var state: String?
        public var limit = 50
        public init(app: String? = nil, state: String? = nil, limit: Int = 50) {
            self.app = app
            self.state = state
            self.limit = limit
        }
    }

    /// Newest first.
    public func history(_ filter: Filter) -> [[(String, BusValue)]] {
        var rows: [[(String, BusValue)]] = []
        attempt("query") { () throws(StoreError) in
            try database.run("""
                SELECT id, app, app_name, summary, body, level, state, coalesce(close_reason, 0), created, updated,
                       coalesce(category, ''), thread, (SELECT group_concat(value, char(31)) FROM json_each(actions))
                FROM notifications
                WHERE (?1 IS NULL OR app = ?1) AND (?2 IS NULL OR state = ?2)
                ORDER BY id DESC LIMIT ?3
                """, [filter.app.map { .text($0) } ?? .null, filter.state.map { .text($0) } ?? .null,
                      .integer(Int64(filter.limit))]) { row in
                var entry: [(String, BusValue)] = [
                    ("id", .uint32(UInt32(clamping: row.integer(0)))), ("app-identity", .string(row.text(1) ?? "")),
                    ("app-name", .string(row.text(2) ?? "")), ("summary", .string(row.text(3) ?? "")),
                    ("body", .string(row.text(4) ?? "")), ("level", .string(row.text(5) ?? "")),
                    ("state", .string(row.text(6) ?? "")), ("created", .int64(row.integer(8))),
                    ("updated", .int64(row.integer(9))), ("thread", .string(row.text(11) ?? "")),
                    ("actions", .stringArray(row.text(12).map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) } ?? [])),
                ]
                if row.integer(7) != 0 { entry.append(("close-reason", .uint32(UInt32(row.integer(7))))) }
                if let category = row.text(10), !category.isEmpty { entry.append(("category", .string(category))) }
                rows.append(entry)
            }
        }
        return rows
    }

    /// A failed write never takes a notification down: it is logged once per kind and chimed goes on.
    private func attempt(_ what: String, _ body: () throws(StoreError) -> Void) {
        do {
            try body()
        } catch {
            report(what, "cannot \(what) in \(path): \(error)")
        }
    }
}
