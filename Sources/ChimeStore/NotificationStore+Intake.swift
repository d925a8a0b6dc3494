/// Moving rows from the intake log into SQLite: after each reply (`commit`), and at start for
/// what a killed chimed logged but SQLite never took.
extension NotificationStore {
    /// Writes the intake's rows into SQLite, with the sequence number of the last, in one
    /// transaction (the caller's, if it holds one), so a row is never put in twice. They leave
    /// the intake when that transaction commits (`commitTransaction`).
    func applyIntake() {
        let opened = holdCommits()
        for row in intake[intakeInTransaction...] {
            guard insert(row) else {
                // SQLite rolls the whole transaction back after a full disk: nothing of the
                // intake is in it any more, and the rows wait for the next commit.
                if sqlite.inTransaction { try? sqlite.execute("ROLLBACK") }
                holding = false
                intakeInTransaction = 0
                return
            }
            intakeInTransaction += 1
        }
        recordApplied(nextIntakeSequence - 1)
        if opened { commitTransaction() }
    }

    /// At start: the rows of the log past the last one SQLite took, put in as they were logged.
    func replayIntake() {
        guard let intakeLog else { return }
        var applied: Int64 = 0
        attempt("read the intake log's position") { () throws(StoreError) in
            try sqlite.run("SELECT applied FROM intake") { applied = $0.integer(0) }
        }
        let records = intakeLog.records()
        let missing = records.filter { $0.sequence > applied }
        nextIntakeSequence = max(applied, records.last?.sequence ?? 0) + 1
        if !missing.isEmpty {
            holdCommits()
            let allIn = missing.allSatisfy { insert($0.values) }
            recordApplied(nextIntakeSequence - 1)
            // Unless SQLite now holds all the log had, the rows wait in the intake for the
            // next commit, as if they had just been recorded, and the log stays.
            guard allIn, commitTransaction() else {
                if sqlite.inTransaction { try? sqlite.execute("ROLLBACK") }
                holding = false
                intake = missing.map(\.values)
                return
            }
            report("intake", "put \(missing.count) notification(s) into the center from \(path)-intake, which chimed had acknowledged before it stopped")
        }
        intakeLog.clear()
    }

    private func recordApplied(_ sequence: Int64) {
        attempt("record the intake log's position") { () throws(StoreError) in
            try sqlite.run("UPDATE intake SET applied = ?1", [.integer(sequence)])
        }
    }
}
