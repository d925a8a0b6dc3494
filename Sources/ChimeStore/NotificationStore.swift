import CSQLite
import ChimeCore
import Glibc

/// The notification center on disk: one SQLite file (mode 0600) in WAL mode, the one log every
/// change is written to before chimed answers the call that made it. A commit is a `write(2)` to
/// the WAL (synchronous=NORMAL): it survives `kill -9` from then on, as the page cache holds it,
/// not an fsync; the WAL is copied into the file, with its fsync, by `checkpoint`. The file is
/// held exclusively: commits skip the shared-memory locking, and a second chimed is refused.
public final class NotificationStore {
    let sqlite: SQLiteDatabase
    public let path: String
    /// `SQLiteDatabase.totalChanges` when the last checkpoint was made.
    var changesAtCheckpoint: Int64 = 0

    /// SQLite, inside the transaction `holdCommits` asked for, if any: whatever reads or changes
    /// the store goes through here.
    var database: SQLiteDatabase {
        beginIfHolding()
        return sqlite
    }
    /// Whether `holdCommits` asked for a transaction that `commit` has not ended.
    var holding = false
    /// Where problems are said: chimed's log, once per kind of failure.
    let report: (_ key: String, _ message: String) -> Void
    /// Notifications chimed 0.1.0 answered that SQLite took from its intake log as this store
    /// opened (`takeOlderIntake`).
    public private(set) var olderRowsTaken = 0
    /// Why what chimed is asked to keep is not kept now (a full disk, an I/O error), or nil
    /// while it is.
    public private(set) var notKept: String?
    /// Hears when `notKept` changes: chimed says it in its log, and GetStatus in `history`.
    public var keptChanged: (_ problem: String?) -> Void = { _ in }
    /// What the last write that failed said, until the next commit looks (`noteKept`).
    var failedWrite: String?
    /// A statement of the transaction `holdCommits` asked for failed: `commit` keeps none of it.
    var transactionFailed = false

    /// Opens or creates the store; a damaged file is moved aside and a fresh one made.
    public init(path: String, report: @escaping (_ key: String, _ message: String) -> Void = { _, _ in }) throws(StoreError) {
        self.path = path
        self.report = report
        if let slash = path.lastIndex(of: "/") { Self.makeFolders(String(path[..<slash])) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        var olderRows = 0
        do {
            sqlite = try Self.openAndMigrate(path) { database throws(StoreError) in
                olderRows = try Self.takeOlderIntake(at: path + "-intake", into: database)
            }
        } catch where error.isLocked {
            throw StoreError("another chimed is using \(path)", code: error.code)
        } catch where error.isAccessFailure {
            // A file that cannot be reached (its folder missing, no permission, a full disk) is
            // not a damaged one: it stays where it is, and chimed runs without history.
            throw error
        } catch {
            let aside = path + ".corrupt-\(time(nil))"
            rename(path, aside)
            unlink(path + "-wal")
            unlink(path + "-shm")
            report("corrupt", "\(path) could not be read (\(error)); moved it to \(aside) and started a new one")
            sqlite = try Self.openAndMigrate(path)
        }
        chmod(path, 0o600)
        // 0.1.0's intake log, whose rows the migration took; its call log waits for chimed to
        // handle what it holds (`olderCalls`).
        unlink(path + "-intake")
        olderRowsTaken = olderRows
        resizePages()
    }

    /// The size of the file's pages: a row of about 500 bytes fits eight to a 4 KB page and two
    /// to a 1 KB one, whose extra splits and merges made each row inserted and pruned dearer.
    static let pageSize: Int64 = 4096

    /// A store made by an older chimed has 1 KB pages: its file is rewritten once with the current
    /// size (VACUUM, which changes the page size only outside WAL mode). If that fails (a full
    /// disk), the store keeps its pages, says so, and the next start tries again. (Tests make an
    /// older store with another `size`.)
    func resizePages(to wanted: Int64 = pageSize) {
        var size = wanted
        try? sqlite.run("PRAGMA page_size") { size = $0.integer(0) }
        guard size != wanted else { return }
        do {
            try sqlite.execute("PRAGMA journal_mode=DELETE; PRAGMA page_size=\(wanted); VACUUM;")
        } catch {
            report("page-size", "could not rewrite \(path) with \(wanted)-byte pages (\(error)); it keeps its \(size)-byte ones")
        }
        attempt("return to WAL mode") { () throws(StoreError) in try sqlite.execute("PRAGMA journal_mode=WAL") }
    }

    /// Copies the write-ahead log into the database. It fsyncs, so chimed calls it a few seconds
    /// after a change (housekeeping) instead of letting a commit inside Notify do it.
    public func checkpoint() {
        commit()
        var frames: (log: Int64, copied: Int64) = (0, 0)
        let done = attempt("checkpoint") { () throws(StoreError) in
            try database.run("PRAGMA wal_checkpoint(PASSIVE)") { frames = ($0.integer(1), $0.integer(2)) }
        }
        if done { changesAtCheckpoint = sqlite.totalChanges }  // a failed one is tried again
        // Only a log copied into the file shows there is room again; an empty one shows nothing.
        noteKept(copied: done && frames.log > 0 && frames.copied == frames.log)
    }

    /// Whether `checkpoint` has work: rows changed since the last, or history to be found kept again.
    public var needsCheckpoint: Bool { sqlite.totalChanges != changesAtCheckpoint || notKept != nil }

    /// mkdir -p, each new folder private to the user.
    static func makeFolders(_ path: String) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            _ = mkdir(prefix, 0o700)
        }
    }

    /// The WAL is cut back to this size when it starts over after a checkpoint: a burst grows
    /// it for a few seconds, and it does not stay that large on disk.
    static let walLimit = 4 << 20

    private static func openAndMigrate(_ path: String,
                                       beforeIntakeGoes: (SQLiteDatabase) throws(StoreError) -> Void = { _ in }) throws(StoreError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        // WAL with synchronous=NORMAL: a commit is a write(2) to the log, never an fsync; the log
        // is copied into the database (with its fsync) by `checkpoint()`, not inside a commit.
        // The page size counts only for a new file (`resizePages` brings an older one up to it).
        // A 512 KB page cache: writes append at the end of one table, and history reads are rare;
        // SQLite's default (2 MB) only grew a long-running daemon's memory.
        try database.execute("PRAGMA page_size=\(pageSize); PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0; PRAGMA cache_size=-512; PRAGMA journal_size_limit=\(walLimit);")
        try StoreSchema.migrate(database, beforeIntakeGoes: beforeIntakeGoes)
        // Reading the table proves the file is a database and not garbage.
        try database.run("SELECT count(*) FROM notifications")
        return database
    }

    /// A failed write never takes a notification down: chimed goes on, and each kind of failure
    /// (a full disk, an I/O error) is said once, whichever statement met it first.
    /// True when `body` succeeded.
    @discardableResult
    func attempt(_ what: String, _ body: () throws(StoreError) -> Void) -> Bool {
        do {
            try body()
            return true
        } catch {
            let full = error.code & 0xff == SQLITE_FULL
            let problem = full ? fullDisk : "history is not being kept: cannot \(what) in \(path): \(error)"
            report("error-\(error.code & 0xff)", problem)
            failedWrite = problem
            if holding { transactionFailed = true }
            return false
        }
    }

    var fullDisk: String {
        "history is not being kept: the disk holding \(path) is full; notifications are refused until there is room"
    }

    /// After each commit and checkpoint: a write that failed since the last (`failedWrite`) marks
    /// history not kept; a checkpoint done (`copied`: the file itself took the log) marks it kept
    /// again. A commit alone does not: on a disk nearly full, one may fit where the next does not,
    /// and history would be said kept and lost turn after turn.
    func noteKept(copied: Bool = false) {
        let now = failedWrite.map { notKept ?? $0 } ?? (copied ? nil : notKept)
        failedWrite = nil
        guard now != notKept else { return }
        notKept = now
        keptChanged(now)
    }
}
