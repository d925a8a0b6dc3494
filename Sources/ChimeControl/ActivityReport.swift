import ChimeCore

/// The control interface's `Activity` reply read as a report: per app, what reached the person
/// today and over the whole span, and day by day. `chimectl report` prints it and the panel's
/// Activity view draws it, so both show the same figures.
public struct ActivityReport: Equatable, Sendable {
    public struct App: Equatable, Sendable {
        public var identity: String
        public var name: String
        public var total = ActivityCounts()
        public var today = ActivityCounts()
        /// One entry per day of the span, oldest first (`dates`).
        public var byDay: [ActivityCounts]
    }

    /// Every day of the span, oldest first, as YYYY-MM-DD; the last is today.
    public var dates: [String]
    /// Those with the most interruptions first, then by name.
    public var apps: [App]

    /// Reads `Activity`'s two outputs.
    public init(dates: [String], rows: [[String: BusValue]]) {
        self.dates = dates
        let index = Dictionary(dates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var apps: [String: App] = [:]
        for row in rows {
            guard let identity = row["app-identity"]?.string, let day = row["day"]?.string.flatMap({ index[$0] }) else { continue }
            func count(_ key: String) -> Int { Int(row[key]?.integer ?? 0) }
            let counts = ActivityCounts(banners: count("banners"), sounds: count("sounds"), updates: count("updates"),
                                        held: count("held"), quiet: count("quiet"))
            var app = apps[identity] ?? App(identity: identity, name: identity, byDay: Array(repeating: ActivityCounts(), count: dates.count))
            if let name = row["app-name"]?.string, !name.isEmpty { app.name = name }
            app.byDay[day] = app.byDay[day] + counts
            app.total = app.total + counts
            if day == dates.count - 1 { app.today = app.today + counts }
            apps[identity] = app
        }
        self.apps = apps.values.sorted {
            ($0.total.interruptions, $1.name, $1.identity) > ($1.total.interruptions, $0.name, $0.identity)
        }
    }

    /// All apps together, day by day.
    public var everyDay: [ActivityCounts] {
        dates.indices.map { day in apps.reduce(ActivityCounts()) { $0 + $1.byDay[day] } }
    }
}
