import ChimeCore

/// What reached the person, per local day and app (`ActivityTally`): `chimectl report` and the
/// panel's Activity view read it.
extension NotificationStore {
    public struct ActivityRow: Equatable, Sendable {
        /// A Julian day number.
        public var day: Int
        public var app: String
        public var name: String
        public var counts: ActivityCounts
    }

    /// Adds what was counted to each day's row, and forgets days more than `keepingDays` before
    /// the newest (chimed writes it in one transaction).
    public func addActivity(_ counts: [ActivityTally.Key: ActivityCounts], names: [String: String], keepingDays: Int) {
        guard let newest = counts.keys.map(\.day).max() else { return }
        for (key, added) in counts {
            attempt("record activity") { () throws(StoreError) in
                try database.run("""
                    INSERT INTO activity (day, app, name, banners, sounds, updates, held, quiet)
                    VALUES (?1, ?2, coalesce(?3, ?2), ?4, ?5, ?6, ?7, ?8)
                    ON CONFLICT(day, app) DO UPDATE SET name = coalesce(?3, name), banners = banners + ?4, sounds = sounds + ?5,
                        updates = updates + ?6, held = held + ?7, quiet = quiet + ?8
                    """, [.integer(Int64(key.day)), .text(key.app), .optional(names[key.app]),
                          .integer(Int64(added.banners)), .integer(Int64(added.sounds)), .integer(Int64(added.updates)),
                          .integer(Int64(added.held)), .integer(Int64(added.quiet))])
            }
        }
        attempt("prune activity") { () throws(StoreError) in
            try database.run("DELETE FROM activity WHERE day < ?1", [.integer(Int64(newest - keepingDays))])
        }
    }

    /// Rows from `firstDay` on, oldest day first, apps in order.
    public func activity(since firstDay: Int) -> [ActivityRow] {
        var rows: [ActivityRow] = []
        attempt("query") { () throws(StoreError) in
            try database.run("""
                SELECT day, app, name, banners, sounds, updates, held, quiet FROM activity
                WHERE day >= ?1 ORDER BY day, app
                """, [.integer(Int64(firstDay))]) { row in
                rows.append(ActivityRow(
                    day: Int(row.integer(0)), app: row.text(1) ?? "", name: row.text(2) ?? "",
                    counts: ActivityCounts(banners: Int(row.integer(3)), sounds: Int(row.integer(4)), updates: Int(row.integer(5)),
                                           held: Int(row.integer(6)), quiet: Int(row.integer(7)))))
            }
        }
        return rows
    }
}
