/// When each thread last interrupted and which of its notifications has the banner: within the
/// thread's cooldown a new notification updates that banner quietly instead of interrupting
/// again (chimed(1)'s threads: one banner for a burst).
public struct ThreadCooldowns: Sendable {
    /// A thread of an app (`NotificationRequest.thread`).
    public struct Key: Hashable, Sendable {
        let app: String
        let thread: String

        public init(_ request: NotificationRequest) {
            app = request.appIdentity
            thread = request.thread
        }
    }

    public struct Entry: Equatable, Sendable {
        /// When it last interrupted: its cooldown runs from here.
        public var interrupted: Instant
        /// The notification whose banner the thread has (it may have closed since).
        public var banner: UInt32
    }

    /// A thread in its cooldown, as the decision sees it: the banner it has on screen, if any,
    /// and that banner's level.
    public struct Cooling: Equatable, Sendable {
        public var banner: UInt32?
        public var bannerLevel: InterruptionLevel?

        public init(banner: UInt32?, bannerLevel: InterruptionLevel? = nil) {
            self.banner = banner
            self.bannerLevel = bannerLevel
        }
    }

    private var entries: [Key: Entry] = [:]

    public init() {}

    /// The thread's entry while its cooldown runs.
    public func cooling(_ key: Key, now: Instant, cooldown: Duration) -> Entry? {
        guard cooldown > .zero, let entry = entries[key], now < entry.interrupted + cooldown else { return nil }
        return entry
    }

    /// The thread interrupted now with notification `id`.
    public mutating func interrupted(_ key: Key, id: UInt32, at now: Instant, cooldown: Duration) {
        if entries.count >= 4_096 { entries = entries.filter { now < $0.value.interrupted + cooldown } }
        entries[key] = Entry(interrupted: now, banner: id)
    }

    /// Notification `id` took the thread's banner over quietly: the cooldown keeps running.
    public mutating func tookOver(_ key: Key, id: UInt32) {
        entries[key]?.banner = id
    }
}
