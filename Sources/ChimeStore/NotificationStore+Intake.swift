/// Moving rows from the intake log into SQLite: after each reply (`commit`), and at start for
/// what a killed chimed logged but SQLite never took.
extension NotificationStore {
    /// Writes the intake's rows into SQLite, with the sequence number of the last, in one
    /// transaction (the caller's, if it holds one), so a row is never put in twice.
    func applyIntake() {
        let rows = intake
        intake = []
        let opened = holdCommits()
        for row in rows { insert(row) }
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
            let opened = holdCommits()
            for record in missing { insert(record.values) }
            recordApplied(nextIntakeSequence - 1)
            if opened { commitTransaction() }
            report("intake", "put \(missing.count) notification(s) into the center from \(path)-intake, which chimed had acknowledged before it stopped")
        }
        if !sqlite.inTransaction { intakeLog.clear() }
    }

    private func recordApplied(_ sequence: Int64) {
        attempt("record the intake log's position") { () throws(StoreError) in
            try sqlite.run("UPDATE intake SET applied = ?1", [.integer(sequence)])
        }
    }
}
