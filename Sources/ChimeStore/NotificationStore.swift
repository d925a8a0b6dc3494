import CSQLite
import ChimeCore
import Glibc

/// The notification center on disk: one SQLite file (mode 0600) in WAL mode, and beside it the
/// intake log, which takes the rows a turn recorded in one copy into its mapped file (or one
/// `write(2)`) before chimed replies, so what chimed acknowledged survives `kill -9` (the page
/// cache holds it, as it holds a WAL commit with synchronous=NORMAL; not an fsync) without the
/// replies waiting for SQLite. The file is held exclusively: commits skip the shared-memory
/// locking, and a second chimed is refused.
public final class NotificationStore {
    let sqlite: SQLiteDatabase
    public let path: String
    /// Rows in the intake log that SQLite has not committed yet, oldest first. A failed commit
    /// (a full disk) leaves them here for the next one.
    var intake: [[SQLiteDatabase.Value]] = []
    /// How many of the first rows of `intake` the open transaction holds.
    var intakeInTransaction = 0
    /// Rows kept for SQLite while its commits fail; past it the oldest wait in the log alone.
    static let intakeLimit = 10_000
    /// nil when the log cannot be opened: rows then go to SQLite directly, before the reply.
    let intakeLog: IntakeLog?
    /// The sequence number of the next row logged; SQLite keeps the last one it took.
    var nextIntakeSequence: Int64 = 1
    /// `SQLiteDatabase.totalChanges` when the last checkpoint was made.
    var changesAtCheckpoint: Int64 = 0

    /// SQLite, once it holds every row recorded: whatever reads or changes the store goes through
    /// here, so it sees (and acts after) every notification recorded before it.
    var database: SQLiteDatabase {
        beginIfHolding()
        if intakeInTransaction < intake.count { applyIntake() }
        return sqlite
    }
    /// Rows recorded that SQLite has not committed yet.
    public var uncommittedRows: Int { intake.count }
    /// Whether `holdCommits` asked for a transaction that `commitTransaction` has not ended.
    var holding = false
    /// The last actions recorded and their JSON text (`actionsJSON`).
    var lastActions: (actions: [Action], json: String)?
    /// Where problems are said: chimed's log, once per kind of failure.
    let report: (_ key: String, _ message: String) -> Void
    /// Why what chimed answers is not on disk now (a full disk, an I/O error), or nil while it
    /// is: every turn's rows reached the intake log, and its other changes SQLite.
    public private(set) var notKept: String?
    /// Hears when `notKept` changes: chimed says it in its log, and GetStatus in `history`.
    public var keptChanged: (_ problem: String?) -> Void = { _ in }
    /// What the last write that failed said, until the next commit looks (`noteKept`).
    var failedWrite: String?

    /// Opens or creates the store; a damaged file is moved aside and a fresh one made.
    public init(path: String, report: @escaping (_ key: String, _ message: String) -> Void = { _, _ in }) throws(StoreError) {
        self.path = path
        self.report = report
        if let slash = path.lastIndex(of: "/") { Self.makeFolders(String(path[..<slash])) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        do {
            sqlite = try Self.openAndMigrate(path)
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
        intakeLog = IntakeLog(path: path + "-intake")
        if intakeLog == nil { report("intake", "cannot open or map \(path)-intake; notifications are written to the store before each reply instead") }
        resizePages()
        replayIntake()
    }

    /// The size of the file's pages. SQLite takes notifications in batches (the intake log), so
    /// small pages no longer keep a commit small; a row of about 500 bytes fits eight to a 4 KB
    /// page and two to a 1 KB one, whose extra splits and merges made each row inserted and pruned
    /// about a tenth dearer (measured in session 16; see git log).
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
    /// The intake log is emptied here too, since SQLite then holds all of it.
    public func checkpoint() {
        commit()
        let done = attempt("checkpoint") { () throws(StoreError) in try database.execute("PRAGMA wal_checkpoint(PASSIVE)") }
        if intake.isEmpty, !sqlite.inTransaction { intakeLog?.clear() }
        if done { changesAtCheckpoint = sqlite.totalChanges }  // a failed one is tried again
    }

    /// Whether `checkpoint` has work: rows waiting in the intake, or rows changed since the last.
    public var needsCheckpoint: Bool { !intake.isEmpty || sqlite.totalChanges != changesAtCheckpoint }

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

    private static func openAndMigrate(_ path: String) throws(StoreError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        // WAL with synchronous=NORMAL: a commit is a write(2) to the log, never an fsync; the log
        // is copied into the database (with its fsync) by `checkpoint()`, not inside a commit.
        // The page size counts only for a new file (`resizePages` brings an older one up to it).
        // A 512 KB page cache: writes append at the end of one table, and history reads are rare;
        // SQLite's default (2 MB) only grew a long-running daemon's memory.
        try database.execute("PRAGMA page_size=\(pageSize); PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0; PRAGMA cache_size=-512; PRAGMA journal_size_limit=\(walLimit);")
        try StoreSchema.migrate(database)
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
            return false
        }
    }

    /// Said once, whether SQLite or the intake log met the full disk first.
    var fullDisk: String {
        "history is not being kept: the disk holding \(path) is full; notifications are still shown, and kept once there is room (a crash before then loses them)"
    }

    /// After each commit: a write that failed since the last one (`failedWrite`) marks history
    /// not kept; it is kept again once a commit leaves SQLite holding every row (`intake` empty:
    /// rows that reached neither the log nor SQLite wait in memory until then).
    func noteKept() {
        let now: String?
        if let failedWrite {
            now = notKept ?? failedWrite
        } else {
            now = intake.isEmpty ? nil : notKept
        }
        failedWrite = nil
        guard now != notKept else { return }
        notKept = now
        keptChanged(now)
    }

    func reportLogFailure(_ log: IntakeLog) {
        let error = log.failure
        if error == ENOSPC || error == EFBIG || error == EDQUOT {
            report("error-\(SQLITE_FULL)", fullDisk)
        } else {
            report("intake-write", "cannot write \(path)-intake (\(String(cString: strerror(error)))); notifications go to the store before each reply instead")
        }
    }
}
