/// What the active Focus held, for the notification that says so when it ends ("While Work was
/// on: 12 notifications from 4 apps") and its Show action, which lists them.
struct HeldDuringFocus: Sendable {
    private(set) var count = 0
    private(set) var apps: Set<String> = []
    /// The newest held, at most `kept`: what Show lists.
    private(set) var newest: [Notification] = []
    static let kept = 50

    mutating func note(_ notification: Notification) {
        count += 1
        apps.insert(notification.appIdentity)
        newest.append(notification)
        if newest.count > 2 * Self.kept { newest.removeFirst(newest.count - Self.kept) }
    }

    /// Show's text: by app, most relevant first, as the scheduled summary lists; a notification
    /// whose preview was hidden shows its placeholder.
    func listing(focus: String) -> (summary: String, body: String) {
        let shown = newest.suffix(Self.kept).map { held -> Notification in
            guard held.decision?.redacted == true else { return held }
            var hidden = held
            hidden.request.summary = HiddenPreview.body(for: held.request)
            return hidden
        }
        let body = ScheduledSummary.text(for: Array(shown)).body
        return ("Held while \(focus) was on: \(count) notification\(count == 1 ? "" : "s")", body)
    }
}
