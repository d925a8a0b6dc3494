/// Every app Chime has heard from or been told about: its settings as the user changed them,
/// and what Chime has already asked it. Persisted by the daemon between runs.
public struct AppRegistry: Equatable, Sendable {
    public struct Record: Equatable, Sendable {
        /// Settings changed with `chimectl apps set` or by answering a prompt; they win over config.
        public var overrides: [String: String] = [:]
        public var explainedTimeSensitive = false
        public var overBudget = false
        public var budgetExempt = false
        /// Wall-clock ms of recent time-sensitive deliveries; not persisted.
        public var timeSensitiveTimes: [Int64] = []

        public init() {}
    }

    public private(set) var records: [String: Record] = [:]
    /// Identities in the order they were first seen, so the oldest are forgotten first.
    private var order: [String] = []
    /// Apps remembered at most: a client that invents a name for every notification must not grow
    /// apps.state, and the writes of it, without bound. Past it the oldest apps the user never set
    /// anything for are forgotten (what Chime asked them is asked again, should they come back).
    public static let capacity = 1_000

    public init() {}

    public var identities: [String] { records.keys.sorted() }
    public func record(_ identity: String) -> Record? { records[identity] }

    /// Remembers an app; returns true the first time.
    @discardableResult
    public mutating func see(_ identity: String) -> Bool {
        guard records[identity] == nil else { return false }
        add(identity, Record())
        return true
    }

    public mutating func update(_ identity: String, _ change: (inout Record) -> Void) {
        if records[identity] == nil { add(identity, Record()) }
        change(&records[identity, default: Record()])
    }

    /// Restores a record read from disk.
    public mutating func restore(_ identity: String, _ record: Record) {
        if records[identity] == nil { add(identity, record) } else { records[identity] = record }
    }

    private mutating func add(_ identity: String, _ record: Record) {
        if records.count >= Self.capacity { forgetOldest() }
        records[identity] = record
        order.append(identity)
    }

    /// Forgets the oldest tenth of the apps the user set nothing for, in one pass.
    private mutating func forgetOldest() {
        var forgotten = 0
        order.removeAll { identity in
            guard forgotten < Self.capacity / 10, records[identity]?.overrides.isEmpty ?? true else { return false }
            records[identity] = nil
            forgotten += 1
            return true
        }
    }

    /// Effective settings: defaults, then the config's `[app NAME]`, then the user's overrides.
    public func settings(for identity: String, config: ChimeSettings) -> AppSettings {
        var settings = AppSettings()
        settings.authorization = config.defaultAuthorization
        settings.quietWhenFocused = config.quietWhenFocused
        settings.holdInFullscreen = config.holdInFullscreen
        settings.nowPlaying = config.nowPlaying
        for (key, value) in (config.apps[identity] ?? [:]).sorted(by: { $0.key < $1.key }) { _ = settings.set(key, to: value) }
        for (key, value) in (records[identity]?.overrides ?? [:]).sorted(by: { $0.key < $1.key }) {
            _ = settings.set(key, to: value)
        }
        return settings
    }

    /// Keeps what a decision did to an app's time-sensitive budget (`TimeSensitiveBudget`); what
    /// apps.state keeps changes only when it crosses the budget (the times are not kept).
    mutating func count(_ change: TimeSensitiveBudget.Change, for identity: String) {
        update(identity) { record in
            record.timeSensitiveTimes = record.timeSensitiveTimes.filter { change.wall - $0 < 3_600_000 } + [change.wall]
            if change.crosses { record.overBudget = true }
        }
    }
}
