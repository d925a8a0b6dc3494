import ChimeCore

/// Every change to the center, each one SQLite statement (a WAL commit, unless `holdCommits` opened a transaction).
extension NotificationStore {
    /// States that stand for a notification chimed still holds open: never pruned, and put
    /// back into chimed after a restart.
    static let heldStates = "('held-by-focus', 'held-for-summary', 'snoozed')"

    /// Records a notification as it now stands (new, replaced in place, held, snoozed).
    public func record(_ notification: Notification, wall: Int64) {
        let request = notification.request
        let hints = request.hints
        let actions = JSONText.stringArray(request.actions.flatMap { [$0.key, $0.label] })
        let level = (notification.decision?.level ?? InterruptionPolicy.requestedLevel(request)).rawValue
        let thread = hints.thread ?? hints.stackTag ?? request.appIdentity
        var focus: String?, snoozeUntil: Int64?
        switch notification.state {
        case .heldByFocus(let name): focus = name
        case .snoozed(let until): snoozeUntil = until
        default: break
        }
        attempt("record") { () throws(StoreError) in
            try database.run("""
                INSERT INTO notifications (id, app, app_name, summary, body, actions, category, thread, level, urgency,
                    state, sender, created, updated, desktop_entry, icon, stack_tag, person, resident, expire_timeout,
                    unread, repeat_count, focus, snooze_until)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)
                ON CONFLICT(id) DO UPDATE SET app=?2, app_name=?3, summary=?4, body=?5, actions=?6, category=?7,
                    thread=?8, level=?9, urgency=?10, state=?11, sender=?12, updated=?13, close_reason=NULL,
                    desktop_entry=?14, icon=?15, stack_tag=?16, person=?17, resident=?18, expire_timeout=?19,
                    unread=?20, repeat_count=?21, focus=?22, snooze_until=?23
                """, bind: { row in
                    row.integer(Int64(notification.id))
                    row.text(request.appIdentity)
                    row.text(request.appName)
                    row.text(request.summary)
                    row.text(request.body)
                    row.text(actions)
                    row.text(hints.category)
                    row.text(thread)
                    row.text(level)
                    row.integer(Int64(notification.urgency.rawValue))
                    row.text(notification.state.name)
                    row.text(notification.sender)
                    row.integer(wall)
                    row.text(hints.desktopEntry)
                    row.text(request.appIcon)
                    row.text(hints.stackTag)
                    row.text(hints.sender)
                    row.integer(hints.resident ? 1 : 0)
                    row.integer(Int64(request.expireTimeout))
                    row.integer(notification.countsAsUnread ? 1 : 0)
                    row.integer(Int64(notification.repeatCount))
                    row.text(focus)
                    row.integer(snoozeUntil)
                })
        }
    }

    /// Closed: reason 2 (the user) and 3 (the app) also read it; a banner that timed out stays
    /// unread. A notification already read or dismissed keeps that state.
    public func recordClosed(_ id: UInt32, reason: CloseReason, wall: Int64) {
        let state = reason == .dismissed ? "dismissed" : "closed"
        let reads = reason == .dismissed || reason == .closedByCall
        attempt("update") { () throws(StoreError) in
            try database.run("""
                UPDATE notifications SET state = CASE WHEN state IN ('read', 'dismissed') THEN state ELSE ?2 END,
                    close_reason=?3, updated=?4, unread = CASE WHEN ?5 THEN 0 ELSE unread END, snooze_until=NULL
                WHERE id=?1
                """, bind: { row in
                    // Bound in place: past the open limit every new notification closes an old one.
                    row.integer(Int64(id))
                    row.text(state)
                    row.integer(Int64(reason.rawValue))
                    row.integer(wall)
                    row.integer(reads ? 1 : 0)
                })
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

    /// Opens a transaction unless one is open, so the writes that follow cost one commit at
    /// `commit()`; chimed holds a turn's replies until then. True when it opened one.
    @discardableResult
    public func holdCommits() -> Bool {
        guard !database.inTransaction else { return false }
        return (try? database.run("BEGIN")) != nil
    }

    /// Commits what `holdCommits` gathered; a failed commit (a full disk) is said once and
    /// rolled back, and chimed goes on.
    public func commit() {
        guard database.inTransaction else { return }
        attempt("commit") { () throws(StoreError) in try database.run("COMMIT") }
        if database.inTransaction { try? database.execute("ROLLBACK") }
    }

    /// Deletes up to `limit` of the oldest entries past `maximumEntries` or last changed before
    /// `cutoff` (unix ms), never one chimed still holds. Returns the ids deleted; a full batch
    /// means there may be more, which the caller deletes in a later, equally short, batch.
    public func prune(maximumEntries: Int, cutoff: Int64, limit: Int) -> [UInt32] {
        var deleted: [UInt32] = []
        attempt("prune") { () throws(StoreError) in
            try database.run("""
                DELETE FROM notifications WHERE id IN (
                    SELECT id FROM notifications
                    WHERE state NOT IN \(Self.heldStates)
                      AND (updated < ?1 OR id <= (SELECT id FROM notifications ORDER BY id DESC LIMIT 1 OFFSET ?2))
                    ORDER BY id LIMIT ?3)
                RETURNING id
                """, [.integer(cutoff), .integer(Int64(maximumEntries)), .integer(Int64(limit))]) { row in
                deleted.append(UInt32(clamping: row.integer(0)))
            }
        }
        return deleted
    }

    func optional(_ text: String?) -> SQLiteDatabase.Value {
        text.map { .text($0) } ?? .null
    }
}
