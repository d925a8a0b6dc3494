/// What a change to the open notifications means for the outside world.
/// The core returns these; the D-Bus adapter turns each into signals.
///
/// Small: a notification is one reference to its shared fields, so an event is a few words and
/// reading one by cases copies only those. (While a notification's fields were inline, every
/// event was a pointer to a heap box, one allocation per event; only the sound's is now.)
public enum ServerEvent: Equatable, Sendable {
    /// Shown, or replaced in place when the id was already shown.
    case presented(Notification)
    /// Shown in place of its thread's banner (`replacing`, which stays open without one): a burst
    /// in one thread interrupts once (Updated on the control interface).
    case updated(Notification, replacing: UInt32)
    /// Kept without a banner: quiet, held by Focus or for the summary.
    case stored(Notification)
    /// Kept without a banner, as `stored`, replacing one that was on screen: its banner comes down
    /// (Withdrawn, reason 4); the app is not told, it is still open.
    case withdrawn(Notification)
    /// Closed; NotificationClosed goes to everyone, as the spec has it.
    case closed(Notification, CloseReason)
    /// Closed early (reason 1, expired) to keep the open set within `maximumOpen`; the center
    /// keeps it. Nobody waits for it, so the daemon tells the app once the flood pauses: a flood
    /// is answered without a storm of signals inside it.
    case retired(Notification)
    /// The user chose an action: ActivationToken then ActionInvoked, to the sender only.
    case actionInvoked(Notification, key: String)
    /// The user replied inline: NotificationReplied, to the sender only.
    case replied(Notification, text: String)
    /// Taken off the screen until its snooze ends; the app is not told, it is still open.
    case snoozed(Notification)
    /// Read in the center (chimectl read), or dismissed there after it closed; it may be open or long closed.
    case read(UInt32, dismissed: Bool = false)
    /// Deleted from the center.
    case deleted(UInt32)
    /// The notification's sound, after the decision, mute and the burst throttle.
    /// Boxed: a choice is three strings, which would make every event as big.
    indirect case playSound(Notification, SoundChoice)
    /// Repeated by the notification `into` (the same texts within the repeat window), which took
    /// its banner, if it had one, and its place in the center: its entry leaves the center, the
    /// notification stays open for its app until its own end.
    case merged(Notification, into: UInt32)
    /// A rule's command to run for the notification (`exec`).
    indirect case runHook(Notification, RuleEffect.Hook)
    /// A rule whose pattern met its match budget on a notification of `app` is turned off until
    /// chimed restarts (or `chimectl rule NAME enable`): the log says so.
    case ruleTurnedOff(String, app: String)
    /// The active Focus changed (`nil`: none is on): announced, kept across restarts, its end
    /// followed by the clock.
    case focusChanged(String?)
    /// An app went over its rate limit; its notifications go quietly to the center for now.
    case overRateLimit(app: String)
    /// What apps.state keeps changed (an app seen, its settings or what it was told, mute): the
    /// daemon writes it before the turn's replies.
    case appStateChanged
    /// Ids up to this one are reserved (`IDCounter`): the daemon keeps the mark before it
    /// answers, so a restart gives none of them again.
    case idsReserved(through: UInt32)
}

extension ServerEvent {
    /// Whether apps.state keeps what this changed (a Focus turned on or off by hand is kept too).
    public var changesAppState: Bool {
        switch self {
        case .focusChanged, .appStateChanged: true
        default: false
        }
    }
}
