/// The store's schema, as the steps that build it: step N takes `user_version` from N to N+1.
/// A file from an older chimed is brought up to date step by step inside one transaction;
/// a file from a newer chimed is refused rather than misread.
enum StoreSchema {
    static var version: Int { migrations.count }

    static let migrations = [
        // 1: the center as the first slice stored it.
        """
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
        """,
        // 2: enough to present a notification again (restore, snooze, held across a restart),
        // and the unread flag and repeat count behind badges and coalescing.
        """
        ALTER TABLE notifications ADD COLUMN desktop_entry TEXT;
        ALTER TABLE notifications ADD COLUMN icon TEXT;
        ALTER TABLE notifications ADD COLUMN stack_tag TEXT;
        ALTER TABLE notifications ADD COLUMN person TEXT;
        ALTER TABLE notifications ADD COLUMN resident INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE notifications ADD COLUMN expire_timeout INTEGER NOT NULL DEFAULT -1;
        ALTER TABLE notifications ADD COLUMN unread INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE notifications ADD COLUMN repeat_count INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE notifications ADD COLUMN focus TEXT;
        ALTER TABLE notifications ADD COLUMN snooze_until INTEGER;
        """,
        // 3: the sequence number of the last row taken from an intake log, which 9 drops.
        """
        CREATE TABLE intake (applied INTEGER NOT NULL);
        INSERT INTO intake VALUES (0);
        """,
        // 4: `x-chime-relevance`, which orders a scheduled summary, so notifications held for one
        // keep their order across a restart.
        """
        ALTER TABLE notifications ADD COLUMN relevance REAL;
        """,
        // 5: the hints that present a notification again as it came (KeptHints).
        """
        ALTER TABLE notifications ADD COLUMN hints TEXT;
        """,
        // 6: what reached the person, per local day (a Julian day number) and app (ActivityTally):
        // kept apart from the notifications, so pruning them leaves the figures.
        """
        CREATE TABLE activity (
            day INTEGER NOT NULL,
            app TEXT NOT NULL,
            name TEXT NOT NULL,
            banners INTEGER NOT NULL DEFAULT 0,
            sounds INTEGER NOT NULL DEFAULT 0,
            updates INTEGER NOT NULL DEFAULT 0,
            held INTEGER NOT NULL DEFAULT 0,
            quiet INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (day, app)
        ) WITHOUT ROWID;
        """,
        // 7: why the decision came out as it did (`DeliveryDecision.reasons`), one a line.
        """
        ALTER TABLE notifications ADD COLUMN reasons TEXT;
        """,
        // 8: what the decision was made from (`DecisionFacts`), for `chimectl replay`.
        """
        ALTER TABLE notifications ADD COLUMN facts TEXT;
        """,
        // 9: SQLite's own log is the one chimed writes before it answers; the intake log is gone.
        """
        DROP TABLE intake;
        """,
    ]

    /// The step that drops 0.1.0's record of how far SQLite took its intake log.
    static let intakeGoes = 8

    /// Runs the steps `database` has not had yet, in one transaction. `beforeIntakeGoes` runs in
    /// it just before `intakeGoes` (a store of 0.1.0's), to take what that log still holds.
    static func migrate(_ database: SQLiteDatabase, beforeIntakeGoes: (SQLiteDatabase) throws(StoreError) -> Void = { _ in }) throws(StoreError) {
        var version: Int64 = 0
        try database.run("PRAGMA user_version") { version = $0.integer(0) }
        guard version <= Int64(Self.version) else {
            throw StoreError("the store has schema version \(version), newer than this chimed (\(Self.version))")
        }
        guard version < Int64(Self.version) else { return }
        do {
            try database.execute("BEGIN")
            for step in Int(version)..<Self.version {
                if step == intakeGoes { try beforeIntakeGoes(database) }
                try database.execute(migrations[step])
            }
            try database.execute("PRAGMA user_version = \(Self.version); COMMIT;")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
