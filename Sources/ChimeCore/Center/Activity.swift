/// What reached the person, per app and local day: the figures behind `chimectl report` and
/// the panel's Activity view. Counted from the core's events, so each is counted where it
/// happened, after the one decision.
public struct ActivityCounts: Equatable, Sendable {
    /// Banners that interrupted (a new banner, or a replacement that interrupts again).
    public var banners = 0
    public var sounds = 0
    /// Changes without a new interruption: replaced in place quietly, or shown in place of its
    /// thread's banner within the thread's cooldown.
    public var updates = 0
    /// Held by a Focus or for the scheduled summary.
    public var held = 0
    /// Kept in the center without a banner (quiet, over the rate limit, in the foreground).
    public var quiet = 0

    public init(banners: Int = 0, sounds: Int = 0, updates: Int = 0, held: Int = 0, quiet: Int = 0) {
        (self.banners, self.sounds, self.updates, self.held, self.quiet) = (banners, sounds, updates, held, quiet)
    }

    /// Banners and sounds: what took the person's attention.
    public var interruptions: Int { banners + sounds }

    public static func + (left: Self, right: Self) -> Self {
        Self(banners: left.banners + right.banners, sounds: left.sounds + right.sounds, updates: left.updates + right.updates,
             held: left.held + right.held, quiet: left.quiet + right.quiet)
    }
}

/// Counts gathered since the store last took them: adding to a dictionary costs a Notify
/// nothing worth measuring, and the store adds a batch to its daily rows now and then.
public struct ActivityTally: Sendable {
    public struct Key: Hashable, Sendable {
        /// The local day, as a Julian day number (`LocalTime.day`).
        public var day: Int
        public var app: String
        public init(day: Int, app: String) { (self.day, self.app) = (day, app) }
    }

    public private(set) var counts: [Key: ActivityCounts] = [:]
    /// The name each app last sent, to show beside its identity.
    public private(set) var names: [String: String] = [:]

    public init() {}

    public var isEmpty: Bool { counts.isEmpty }

    /// Counts what `event` brought the person on `day`; events that bring nothing are ignored,
    /// and for them the day is not worked out.
    public mutating func count(_ event: ServerEvent, day: @autoclosure () -> Int) {
        let notification: Notification
        switch event {
        case .presented(let shown):
            notification = shown
            add(shown.decision?.interrupts == false ? \.updates : \.banners, shown, day)
        case .updated(let shown, _):
            notification = shown
            add(\.updates, shown, day)
        case .stored(let kept), .withdrawn(let kept):
            notification = kept
            add(kept.state.isHeld ? \.held : \.quiet, kept, day)
        case .playSound(let sounded, _):
            notification = sounded
            add(\.sounds, sounded, day)
        case .closed, .retired, .actionInvoked, .replied, .snoozed, .read, .deleted, .runHook, .ruleTurnedOff, .merged, .focusChanged, .overRateLimit,
             .appStateChanged, .idsReserved:
            return
        }
        if names[notification.appIdentity] != notification.request.appName {
            names[notification.appIdentity] = notification.request.appName
        }
    }

    private mutating func add(_ field: WritableKeyPath<ActivityCounts, Int>, _ notification: Notification, _ day: () -> Int) {
        counts[Key(day: day(), app: notification.appIdentity), default: ActivityCounts()][keyPath: field] += 1
    }

    /// Everything counted since the last time, and starts again.
    public mutating func take() -> (counts: [Key: ActivityCounts], names: [String: String]) {
        defer { (counts, names) = ([:], [:]) }
        return (counts, names)
    }
}

extension NotificationState {
    /// Held by a Focus or for the summary.
    public var isHeld: Bool {
        switch self {
        case .heldByFocus, .heldForSummary: true
        default: false
        }
    }
}
