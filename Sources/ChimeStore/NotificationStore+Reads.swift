import ChimeCore

/// What chimed and chimectl read back from the center.
extension NotificationStore {
    /// The highest id ever stored, so ids continue past it after a restart.
    public func highestID() -> UInt32 {
        var highest: Int64 = 0
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT coalesce(max(id), 0) FROM notifications") { highest = $0.integer(0) }
        }
        return UInt32(clamping: highest)
    }

    public struct Filter: Sendable {
        public var app: String?
        public var thread: String?
        /// One of `NotificationState.centerStates`.
        public var state: String?
        public var limit = 50
        /// Only those that came at or after this time (unix milliseconds).
        public var since: Int64?
        /// Only those older than this id: where the previous page ended.
        public var before: UInt32?
        /// Only those whose summary, body or app name holds this text (ASCII letters in any case).
        public var text: String?
        public init(app: String? = nil, thread: String? = nil, state: String? = nil, limit: Int = 50, since: Int64? = nil) {
            self.since = since
            self.app = app
            self.thread = thread
            self.state = state
            self.limit = limit
        }
    }

    /// Newest first, while `each` takes them (a page that is full stops reading).
    public func history(_ filter: Filter, each: @escaping (CenterEntry) -> Bool) {
        attempt("query") { () throws(StoreError) in
            try database.run("""
                SELECT \(Self.columns) FROM notifications
                WHERE (?1 IS NULL OR app = ?1) AND (?2 IS NULL OR thread = ?2)
                  AND (?3 IS NULL OR state = ?3 OR (?3 = 'unread' AND unread = 1))
                  AND (?5 IS NULL OR created >= ?5) AND (?6 IS NULL OR id < ?6)
                  AND (?7 IS NULL OR chime_fold(summary) LIKE ?7 ESCAPE '\\' OR chime_fold(body) LIKE ?7 ESCAPE '\\'
                       OR chime_fold(app_name) LIKE ?7 ESCAPE '\\')
                ORDER BY id DESC LIMIT ?4
                """, [.optional(filter.app), .optional(filter.thread), .optional(filter.state),
                      .integer(Int64(filter.limit)), .optional(filter.since), .optional(filter.before.map { Int64($0) }),
                      .optional(filter.text.map { Self.likePattern($0.folded) })],
                while: { row in each(Self.centerEntry(row)) })
        }
    }

    /// `text` anywhere, as a LIKE pattern: its own `%`, `_` and `\` match themselves. A scan
    /// of the table in SQLite; a full-text index would cost every Notify a write to keep.
    static func likePattern(_ text: String) -> String {
        var pattern = "%"
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// The same, all at once.
    public func history(_ filter: Filter) -> [CenterEntry] {
        var rows: [CenterEntry] = []
        history(filter) { entry in
            rows.append(entry)
            return true
        }
        return rows
    }

    public func contains(_ id: UInt32) -> Bool {
        var found = false
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT 1 FROM notifications WHERE id = ?1", [.integer(Int64(id))]) { _ in found = true }
        }
        return found
    }

    /// One entry of the center, or nil when it has no such id.
    public func entry(_ id: UInt32) -> CenterEntry? {
        var found: CenterEntry?
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT \(Self.columns) FROM notifications WHERE id = ?1", [.integer(Int64(id))]) {
                found = Self.centerEntry($0)
            }
        }
        return found
    }

    /// The notification as it was sent, rebuilt to be presented again.
    public func notification(_ id: UInt32) -> Notification? {
        var found: Notification?
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT \(Self.columns) FROM notifications WHERE id = ?1", [.integer(Int64(id))]) {
                found = Self.notification($0)
            }
        }
        return found
    }

    /// The notifications the center keeps since `wall` (unix ms) with the facts their decisions
    /// took, oldest first: what `chimectl replay` decides again.
    public func decided(since wall: Int64) -> [Replay.Entry] {
        var found: [Replay.Entry] = []
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT \(Self.columns), facts FROM notifications WHERE facts IS NOT NULL AND created >= ?1 ORDER BY id",
                             [.integer(wall)]) { row in
                guard let facts = row.text(Self.reasonsColumn + 1).flatMap(DecisionFacts.init(encoded:)) else { return }
                let entry = Self.centerEntry(row)
                found.append(Replay.Entry(notification: entry.notification, facts: facts, reasons: entry.reasons))
            }
        }
        return found
    }

    /// What chimed held or had snoozed when it stopped, oldest first.
    public func held() -> [Notification] {
        var found: [Notification] = []
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT \(Self.columns) FROM notifications WHERE state IN \(Self.heldStates) ORDER BY id") {
                found.append(Self.notification($0))
            }
        }
        return found
    }

    /// The paths of every file the center's notifications carry (`Center.sweepAttachments`).
    public func attachmentPaths() -> [String] {
        var paths: [String] = []
        attempt("query") { () throws(StoreError) in
            try database.run(KeptHints.attachmentPathsSQL, row: { row in
                if let path = row.text(0).flatMap(Attachment.init(storedLine:))?.path { paths.append(path) }
            })
        }
        return paths
    }

    /// Every unread entry: its id and app.
    public func unread() -> [(id: UInt32, app: String)] {
        var found: [(UInt32, String)] = []
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT id, app FROM notifications WHERE unread = 1 ORDER BY id") {
                found.append((UInt32(clamping: $0.integer(0)), $0.text(1) ?? ""))
            }
        }
        return found
    }

    /// Each app's newest "now playing" notification in the center (its decision's facts say the
    /// track), which the app's next one takes the place of.
    public func nowPlaying() -> [String: UInt32] {
        var found: [String: UInt32] = [:]
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT app, MAX(id) FROM notifications WHERE facts LIKE '%now-playing=%' GROUP BY app") {
                found[$0.text(0) ?? ""] = UInt32(clamping: $0.integer(1))
            }
        }
        return found
    }

    /// Ids in the center, of one app or all.
    public func ids(app: String?) -> [UInt32] {
        var found: [UInt32] = []
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT id FROM notifications WHERE ?1 IS NULL OR app = ?1 ORDER BY id",
                             [.optional(app)]) { found.append(UInt32(clamping: $0.integer(0))) }
        }
        return found
    }

    /// The app identities in the center of the apps that `name`, in any case, is the identity or
    /// the app name of (`Firefox` finds `firefox`, and `org.mozilla.firefox` sent as "Firefox").
    public func apps(named name: String) -> [String] {
        var found: [String] = []
        attempt("query") { () throws(StoreError) in
            try database.run("SELECT DISTINCT app FROM notifications WHERE app = ?1 COLLATE NOCASE OR app_name = ?1 COLLATE NOCASE ORDER BY app",
                             [.text(name)]) { found.append($0.text(0) ?? "") }
        }
        return found
    }

    // MARK: Rows

    static let columns = """
        id, app, app_name, summary, body, level, state, coalesce(close_reason, 0), created, updated,
        category, thread, (SELECT group_concat(value, char(31)) FROM json_each(actions)), unread, repeat_count,
        snooze_until, desktop_entry, icon, stack_tag, person, resident, expire_timeout, urgency, sender, focus,
        relevance, \(KeptHints.columns), reasons
        """

    /// Where `columns` has `reasons`: after KeptHints' thirteen.
    static let reasonsColumn: Int32 = 39

    private static func actions(_ row: SQLiteDatabase.Row) -> [String] {
        row.text(12).map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    static func centerEntry(_ row: SQLiteDatabase.Row) -> CenterEntry {
        CenterEntry(notification: notification(row), state: row.text(6) ?? "", created: row.integer(8), updated: row.integer(9),
                    thread: row.text(11) ?? "", unread: row.integer(13) != 0,
                    closeReason: row.integer(7) != 0 ? UInt32(clamping: row.integer(7)) : nil,
                    reasons: row.text(reasonsColumn).map(Reason.read) ?? [])
    }

    static func notification(_ row: SQLiteDatabase.Row) -> Notification {
        var hints = NotificationHints()
        hints.desktopEntry = row.text(16)
        hints.category = row.text(10)
        hints.thread = row.text(11)
        hints.stackTag = row.text(18)
        hints.sender = row.text(19)
        hints.resident = row.integer(20) != 0
        hints.urgency = Urgency(rawValue: UInt8(clamping: row.integer(22)))
        hints.interruptionLevel = row.text(5).flatMap(InterruptionLevel.init(rawValue:))
        hints.relevance = row.real(25)
        KeptHints.read(row, from: 26, into: &hints)
        let request = NotificationRequest(appName: row.text(2) ?? "", appIcon: row.text(17), summary: row.text(3) ?? "",
                                          body: row.text(4) ?? "", actions: Action.pairs(actions(row)), hints: hints,
                                          expireTimeout: Int32(clamping: row.integer(21)))
        var notification = Notification(id: UInt32(clamping: row.integer(0)), request: request, sender: row.text(23) ?? "",
                                        created: .init(milliseconds: 0), arrived: row.integer(8), updated: .init(milliseconds: 0), expires: nil)
        notification.repeatCount = Int(clamping: max(1, row.integer(14)))
        switch row.text(6) {
        case "held-by-focus": notification.state = .heldByFocus(row.text(24) ?? "")
        case "held-for-summary": notification.state = .heldForSummary
        case "snoozed": notification.state = .snoozed(until: row.integer(15))
        default: notification.state = .quiet
        }
        return notification
    }
}
