import ChimeCore

/// Every change to the center, each one SQLite statement (a WAL commit, unless `holdCommits` opened a transaction).
extension NotificationStore {
    /// States that stand for a notification chimed still holds open: never pruned, and put
    /// back into chimed after a restart.
    static let heldStates = "('held-by-focus', 'held-for-summary', 'snoozed')"

    /// At start: what an earlier chimed left open that nothing holds (its banner, or its wait for
    /// its timeout) ended with it. Each is recorded closed (reason 4, undefined) and stays unread,
    /// as a banner that timed out does; but a critical banner never ends on its own, so those are
    /// returned instead, to be presented again.
    public func closeLeftOpen(wall: Int64) -> [Notification] {
        let open = "state IN ('presented', 'quiet', 'summarized') AND close_reason IS NULL"
        let critical = "state = 'presented' AND level = 'critical'"
        var again: [Notification] = []
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT \(Self.columns) FROM notifications WHERE \(open) AND \(critical) ORDER BY id") {
                again.append(Self.notification($0))
            }
        }
        attempt("update") { () throws(StoreError) in
            try database.run("UPDATE notifications SET state = 'closed', close_reason = ?1, updated = ?2 WHERE \(open) AND NOT (\(critical))",
                             [.integer(Int64(CloseReason.undefined.rawValue)), .integer(wall)])
        }
        return again
    }

    /// Records a notification as it now stands (new, replaced in place, held, snoozed), in the
    /// turn's transaction: its app has its id only once that commits.
    public func record(_ notification: Notification, wall: Int64) {
        insert(row(notification, wall: wall))
    }

    /// The values of a notification's row, in the order `insertSQL` binds them.
    func row(_ notification: Notification, wall: Int64) -> [SQLiteDatabase.Value] {
        let request = notification.request
        let actions = actionsJSON(request.actions)
        let level = (notification.decision?.level ?? InterruptionPolicy.requestedLevel(request)).rawValue
        // Each hint read where it is kept: `let hints = request.hints` copied all thirty.
        let thread = request.thread
        var focus: String?, snoozeUntil: Int64?
        switch notification.state {
        case .heldByFocus(let name): focus = name
        case .snoozed(let until): snoozeUntil = until
        default: break
        }
        return [
            .integer(Int64(notification.id)), .text(request.appIdentity), .text(request.appName),
            .text(request.summary), .text(request.body), .text(actions), .optional(request.hints.category),
            .text(thread), .text(level), .integer(Int64(notification.urgency.rawValue)),
            .text(notification.state.name), .text(notification.sender), .integer(wall),
            .optional(request.hints.desktopEntry), .optional(request.appIcon), .optional(request.hints.stackTag),
            .optional(request.hints.sender), .integer(request.hints.resident ? 1 : 0), .integer(Int64(request.expireTimeout)),
            unreadValue(notification), .integer(Int64(notification.repeatCount)),
            .optional(focus), .optional(snoozeUntil), .null, .optional(request.hints.relevance),
            .optional(KeptHints.json(request)),
            .optional(notification.decision.map { Reason.kept($0.reasons) }),
            .optional(notification.decision.map(\.facts.encoded)),
        ]
    }

    /// Unread, or NULL for an update in place that does not interrupt: the row then stays as read
    /// or unread as it was (`insertSQL`).
    private func unreadValue(_ notification: Notification) -> SQLiteDatabase.Value {
        notification.decision?.interrupts == false ? .null : .integer(notification.countsAsUnread ? 1 : 0)
    }

    /// The actions as a row stores them.
    private func actionsJSON(_ actions: [Action]) -> String {
        JSONText.stringArray(actions.flatMap { [$0.key, $0.label] })
    }

    static let insertSQL = """
        INSERT INTO notifications (id, app, app_name, summary, body, actions, category, thread, level, urgency,
            state, sender, created, updated, desktop_entry, icon, stack_tag, person, resident, expire_timeout,
            unread, repeat_count, focus, snooze_until, close_reason, relevance, hints, reasons, facts)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
            COALESCE(?20, 0), ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28)
        ON CONFLICT(id) DO UPDATE SET app=?2, app_name=?3, summary=?4, body=?5, actions=?6, category=?7,
            thread=?8, level=?9, urgency=?10, state=CASE WHEN ?20 IS NULL AND state = 'read' THEN state ELSE ?11 END,
            sender=?12, updated=?13, close_reason=?24,
            desktop_entry=?14, icon=?15, stack_tag=?16, person=?17, resident=?18, expire_timeout=?19,
            unread=COALESCE(?20, unread), repeat_count=?21, focus=?22, snooze_until=?23, relevance=?25, hints=?26,
            reasons=COALESCE(?27, reasons), facts=COALESCE(?28, facts)
        """

    /// Writes one row into SQLite (in the open transaction, if any); false when it failed.
    @discardableResult
    func insert(_ row: [SQLiteDatabase.Value]) -> Bool {
        beginIfHolding()
        return attempt("record") { () throws(StoreError) in try sqlite.run(Self.insertSQL, row) }
    }

    /// States a close leaves as they are: the user saw it.
    static let keptWhenClosed = ["read", "dismissed"]
    static let keptWhenClosedSQL = "(" + keptWhenClosed.map { "'\($0)'" }.joined(separator: ", ") + ")"

    /// Closed: reason 2 (the user) and 3 (the app) also read it; a banner that timed out stays
    /// unread. A notification already read or dismissed keeps that state.
    public func recordClosed(_ id: UInt32, reason: CloseReason, wall: Int64) {
        let state = reason == .dismissed ? "dismissed" : "closed"
        let reads = reason == .dismissed || reason == .closedByCall
        attempt("update") { () throws(StoreError) in
            try database.run("""
                UPDATE notifications SET state = CASE WHEN state IN \(Self.keptWhenClosedSQL) THEN state ELSE ?2 END,
                    close_reason=?3, updated=?4, unread = CASE WHEN ?5 THEN 0 ELSE unread END, snooze_until=NULL
                WHERE id=?1
                """, [.integer(Int64(id)), .text(state), .integer(Int64(reason.rawValue)), .integer(wall), .integer(reads ? 1 : 0)])
        }
    }

    /// Read (or dismissed) in the center; what chimed still holds keeps its held state.
    public func markRead(_ id: UInt32, dismissed: Bool, wall: Int64) {
        attempt("update") { () throws(StoreError) in
            try database.run("""
                UPDATE notifications SET unread=0, updated=?3,
                    state = CASE WHEN state IN \(Self.heldStates) THEN state ELSE ?2 END
                WHERE id=?1
                """, [.integer(Int64(id)), .text(dismissed ? "dismissed" : "read"), .integer(wall)])
        }
    }

    public func delete(_ id: UInt32) {
        attempt("delete") { () throws(StoreError) in
            try database.run("DELETE FROM notifications WHERE id=?1", [.integer(Int64(id))])
        }
    }

    /// Asks for the writes that follow to share one transaction, committed at `commit()`; it
    /// opens with the first of them, so a turn that writes nothing costs SQLite nothing.
    /// False when one was already asked for.
    @discardableResult
    public func holdCommits() -> Bool {
        guard !holding, !sqlite.inTransaction else { return false }
        holding = true
        return true
    }

    /// Opens the transaction `holdCommits` asked for, before the first write.
    func beginIfHolding() {
        guard holding, !sqlite.inTransaction else { return }
        attempt("begin a transaction") { () throws(StoreError) in try sqlite.run("BEGIN") }
    }

    /// Makes what the transaction wrote durable: the turn's replies wait for it. False when it
    /// was not (a write or the commit failed, a full disk): SQLite then holds none of it, said
    /// once in chimed's log, and chimed goes on.
    @discardableResult
    public func commit() -> Bool {
        holding = false
        var kept = !transactionFailed
        transactionFailed = false
        if sqlite.inTransaction {
            // A failed statement may have left the rest of the transaction standing: none of it
            // is kept, so what the turn promised is all or nothing.
            kept = kept && attempt("commit") { () throws(StoreError) in try sqlite.run("COMMIT") }
            if !kept { try? sqlite.execute("ROLLBACK") }
        }
        noteKept()
        return kept
    }

    /// Deletes up to `limit` of the oldest entries past `maximumEntries` or last changed before
    /// `cutoff` (unix ms), never one chimed still holds. Returns the ids deleted; a full batch
    /// means there may be more, which the caller deletes in a later, equally short, batch.
    public func prune(maximumEntries: Int, cutoff: Int64, limit: Int) -> [UInt32] {
        var deleted: [UInt32] = []
        let prunable = """
            state NOT IN \(Self.heldStates)
            AND (updated < ?1 OR id <= (SELECT id FROM notifications ORDER BY id DESC LIMIT 1 OFFSET ?2))
            """
        let done = attempt("prune") { () throws(StoreError) in
            try database.run("SELECT id FROM notifications WHERE \(prunable) ORDER BY id LIMIT ?3",
                             [.integer(cutoff), .integer(Int64(maximumEntries)), .integer(Int64(limit))]) { row in
                deleted.append(UInt32(clamping: row.integer(0)))
            }
            guard let first = deleted.first, let last = deleted.last else { return }
            // The rows between the first and the last that are prunable are exactly those found:
            // deleted in one pass over their range, a row costs about two thirds of what deleting
            // a list of ids with RETURNING did (every notification of a flood past the limit).
            try database.run("DELETE FROM notifications WHERE \(prunable) AND id BETWEEN ?3 AND ?4",
                             [.integer(cutoff), .integer(Int64(maximumEntries)), .integer(Int64(first)), .integer(Int64(last))])
        }
        // Found but not deleted (a full disk): none were.
        return done ? deleted : []
    }

}
