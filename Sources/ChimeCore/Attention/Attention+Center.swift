/// What the user does in the notification center: read, restore, snooze, delete; and the
/// badges that follow from what is unread.
extension Attention {
    /// Marks notifications read, open or long closed.
    public func read(_ ids: [UInt32]) -> [ServerEvent] {
        ids.map { .read($0) }
    }

    /// Marks every unread notification of an app read; without one, of every app.
    public func readAll(app: String? = nil) -> [ServerEvent] {
        read(app.map(unread.ids(of:)) ?? unread.allIDs)
    }

    /// Presents a notification again as a banner, with its sound: `chimectl restore`, and a
    /// snooze that ended; without, a critical banner chimed had up when it stopped.
    /// `notification` is the open one, or one rebuilt from the center.
    public mutating func presentAgain(_ notification: Notification, now: Now, sound: Bool = true) -> [ServerEvent] {
        var again = server.notification(notification.id) ?? notification
        var events: [ServerEvent] = []
        let rules = rules(for: again.request, events: &events)
        let decision = DeliveryDecision.decide(again.request, identity: again.appIdentity, context: .init(
            app: settings(for: again.appIdentity), rules: rules, globalPreviews: settings.previews,
            locked: locked, muted: muted, onRequest: true))
        again.decision = decision
        again.state = .presented
        events += server.adopt(again, now: now.monotonic)
        if sound, let choice = SoundChoice.choose(for: again.request, decision: decision, settings: settings.sounds),
           let shown = server.notification(again.id) {
            events.append(.playSound(shown, choice))
        }
        return events
    }

    /// Takes a notification off the screen and brings it back after `seconds`.
    public mutating func snooze(_ notification: Notification, seconds: Int64, now: Now) -> [ServerEvent] {
        var snoozed = server.notification(notification.id) ?? notification
        snoozed.state = .snoozed(until: now.wall + seconds * 1_000)
        return server.adopt(snoozed, now: now.monotonic)
    }

    /// Presents again the snoozed notifications whose time has come.
    public mutating func wakeSnoozed(now: Now) -> [ServerEvent] {
        server.snoozed(dueBy: now.wall).flatMap { presentAgain($0, now: now) }
    }

    /// Deletes notifications from the center; open ones close as if the user dismissed them.
    public mutating func delete(_ ids: [UInt32]) -> [ServerEvent] {
        ids.flatMap { id in ((try? server.dismiss(id)) ?? []) + [.deleted(id)] }
    }

    /// Puts back what was held or snoozed when chimed last stopped, without announcing it again.
    /// What a Focus that ended meanwhile held goes quietly to the center (the events say so to the
    /// center), as it would have had chimed been running.
    public mutating func resume(_ notifications: [Notification], now: Now) -> [ServerEvent] {
        let active = focus.active(modes: settings.focusModes, now: now)?.name
        var released: [UInt32] = []
        for notification in notifications {
            _ = server.adopt(notification, now: now.monotonic)
            guard case .heldByFocus(let focus) = notification.state else { continue }
            if focus == active {
                heldDuringFocus.note(notification)
            } else {
                released.append(notification.id)
            }
        }
        return server.release(released, as: .quiet, now: now.monotonic)
    }

    /// An app's badge: its unread count, shown unless its badges are off or the Focus hides them.
    public mutating func badge(for app: String) -> Badge {
        let count = unread.count(app)
        let hidden = !settings(for: app).badges || (activeFocusMode?.hidesBadges ?? false)
        return Badge(count: count, visible: count > 0 && !hidden)
    }

    /// An app sent its own LauncherEntry count (Telegram, Thunderbird do): docks get no second,
    /// competing one from Chime, and a count of zero marks the app's notifications in the center
    /// read, as lowering its badge to zero clears them on Apple's platforms. Returns whether the
    /// app is new to sending its own, and what reading changed.
    public mutating func ownBadgeSent(by app: String, count: Int64) -> (new: Bool, events: [ServerEvent]) {
        let new = appsWithOwnBadges.insert(app).inserted
        return (new, count == 0 ? readAll(app: app) : [])
    }

    /// Whether the center, shown now (the panel), hides the text of `app`'s notifications: as
    /// its banners would be (`DeliveryDecision.redacted`) for the app's previews setting, the
    /// lock and the active Focus.
    public func hidesPreviews(of app: String) -> Bool {
        DeliveryDecision.redacts(previews: apps.settings(for: app, config: settings).previews ?? settings.previews,
                                 hidesWhenLocked: false, locked: locked, focus: activeFocusMode)
    }
}
