/// What the active Focus held, for the notification that says so when it ends ("While Work was
/// on: 12 notifications from 4 apps") and its Show action, which lists them.
struct HeldDuringFocus: Sendable {
    private(set) var count = 0
    private(set) var apps: Set<String> = []
    /// What Show lists of the newest held, at most `kept`: their words, not the notifications.
    private var newest: [ScheduledSummary.Item] = []
    static let kept = 50

    mutating func note(_ notification: Notification) {
        count += 1
        apps.insert(notification.appIdentity)
        newest.append(ScheduledSummary.Item(notification, hidden: notification.decision?.redacted == true))
        if newest.count > 2 * Self.kept { newest.removeFirst(newest.count - Self.kept) }
    }

    /// Show's text: by app, most relevant first, as the scheduled summary lists; a notification
    /// whose preview was hidden shows its placeholder.
    func listing(focus: String) -> (summary: String, body: String) {
        (trn("Held while {focus} was on: {n} notification", "Held while {focus} was on: {n} notifications", count, ["focus": focus]),
         ScheduledSummary.listing(Array(newest.suffix(Self.kept))))
    }
}
