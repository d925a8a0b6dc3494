/// Moving rows from the intake log into SQLite: after the replies, in batches (`commit`), and at start for
/// what a killed chimed logged but SQLite never took.
extension NotificationStore {
    /// Writes the intake's rows into SQLite, with the sequence number of the last, in one
    /// transaction (the caller's, if it holds one), so a row is never put in twice. They leave
    /// the intake when that transaction commits (`commitTransaction`).
    func applyIntake() {
        let opened = holdCommits()
        for row in intake[intakeInTransaction...] {
            guard insert(row) else { return abandonTransaction() }
            intakeInTransaction += 1
        }
        recordApplied(nextIntakeSequence - 1)
        if opened { commitTransaction() }
    }

    /// At start: the rows of the log past the last one SQLite took go into the intake, as if just
    /// recorded, and are committed at once; the log is emptied once SQLite holds them all (if it
    /// cannot take them now, they wait for the next commit, and the log for the next start).
    func replayIntake() {
        guard let intakeLog else { return }
        var applied: Int64 = 0
        attempt("read the intake log's position") { () throws(StoreError) in
            try sqlite.run("SELECT applied FROM intake") { applied = $0.integer(0) }
        }
        let records = intakeLog.records()
        nextIntakeSequence = max(applied, records.last?.sequence ?? 0) + 1
        intake = records.filter { $0.sequence > applied }.map(\.values)
        let missing = intake.count
        commit()
        guard intake.isEmpty else { return }
        if missing > 0 {
            report("intake", "put \(missing) notification(s) into the center from \(path)-intake, which chimed had acknowledged before it stopped")
        }
        intakeLog.clear()
    }

    /// After the replies: the intake log makes room for the next turns' rows, so they are
    /// copied in without waiting for the disk's allocation.
    public func makeRoomInIntakeLog() {
        intakeLog?.makeRoomAhead()
    }

    private func recordApplied(_ sequence: Int64) {
        attempt("record the intake log's position") { () throws(StoreError) in
            try sqlite.run("UPDATE intake SET applied = ?1", [.integer(sequence)])
        }
    }
}
