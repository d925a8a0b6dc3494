import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import CShims
import Glibc

/// The effects of what the core decided, once the turn's replies are gone: signals (to the
/// sender only where the spec says so), the sound, unread counts and badges, the Focus said,
/// the timers armed again.
extension Daemon {
    /// Sends what applied events mean (sounds and hooks only once the turn's commit kept them:
    /// `EffectQueue`), then re-arms the timers and announces badges.
    func settle() {
        let inTurn = objects.inTurn
        guard effects.isDue(inTurn: inTurn) else { return }
        for event in effects.take(inTurn: inTurn) { handle(event) }
        if !deletedUnannounced.isEmpty {
            // One signal for a whole clear, not one per notification.
            emitControl("Deleted", [.array(elementSignature: "u", deletedUnannounced)])
            deletedUnannounced = []
        }
        retired.tellWhenQuiet()
        expiryTimer?.arm(at: attention.server.nextDeadline?.milliseconds)
        snoozeTimer?.arm(at: attention.server.nextSnoozeEnd.map {
            GLibSources.monotonicMilliseconds() + ($0 - LocalClock.wallMilliseconds())
        })
        attention.unread.takeChanged { badges.mayHaveChanged($0) }
    }

    func handle(_ event: ServerEvent) {
        attention.unread.observe(event)
        activity.count(event, day: clock.localTime(unixMilliseconds: LocalClock.wallMilliseconds()).day)
        portal.follow(event)
        switch event {
        case .presented(let notification):
            presenter.needed()
            emitControl("Presented", [.uint32(notification.id), NotificationRecord.busValue(notification, asPresented: true)])
        case .updated(let notification, let previous):
            presenter.needed()
            emitControl("Updated", [.uint32(notification.id), .uint32(previous),
                                    NotificationRecord.busValue(notification, asPresented: true)])
        case .stored(let notification):
            // Bars and scripts see what came without a banner too; a flood over its rate limit
            // costs no signal per notification.
            if notification.decision?.rateLimited ?? .admitted == .admitted {
                emitControl("Stored", [.uint32(notification.id), NotificationRecord.busValue(notification, asPresented: true)])
            }
        case .read, .merged:
            break
        case .deleted(let id):
            deletedUnannounced.append(.uint32(id))
        case .withdrawn(let notification):
            // Replaced in place by one that is not shown: its banner comes down, the app is not told.
            emitControl("Withdrawn", [.uint32(notification.id), .uint32(CloseReason.undefined.rawValue)])
        case .snoozed(let notification):
            // Off the screen but still open: presenters hide it, the app is not told.
            emitControl("Withdrawn", [.uint32(notification.id), .uint32(CloseReason.dismissed.rawValue)])
        case .closed(let notification, let reason):
            emitNotifications("NotificationClosed", [.uint32(notification.id), .uint32(reason.rawValue)])
            // Presenters hear only of what they were shown: a flood rate-limited into the center
            // costs one signal per notification, not two.
            if notification.state == .presented {
                emitControl("Withdrawn", [.uint32(notification.id), .uint32(reason.rawValue)])
            }
        case .retired(let notification):
            // A banner leaves the screen now; the app hears of it, and the center marks it
            // closed, once the flood pauses (RetiredCloser).
            if notification.state == .presented {
                emitControl("Withdrawn", [.uint32(notification.id), .uint32(CloseReason.expired.rawValue)])
            }
            retired.add(notification.id)
        case .actionInvoked(let notification, _) where notification.sender == Attention.selfSender:
            break
        case .actionInvoked where portal.say(event, token: takeToken), .replied where portal.say(event, token: takeToken):
            // Came through the notification portal: said back to it, under the app's names.
            break
        case .actionInvoked(let notification, let key):
            // The token comes first so the app may use it when it handles the action.
            let token = activationTokens.removeValue(forKey: notification.id) ?? activationToken(for: notification)
            emitNotifications("ActivationToken", [.uint32(notification.id), .string(token)],
                              to: notification.sender)
            emitNotifications("ActionInvoked", [.uint32(notification.id), .string(key)], to: notification.sender)
        case .replied(let notification, let text):
            emitNotifications("NotificationReplied", [.uint32(notification.id), .string(text)], to: notification.sender)
        case .playSound(let notification, var choice):
            // The file may have changed since it was checked (an app's when its Notify came, one
            // chosen with chimectl when it was set), and one named in the config never was:
            // libcanberra would block its thread on a FIFO. Sounds are few (one a burst).
            if let file = choice.file, case .failure(let problem) = SoundFile.check(file) {
                Log.warningOnce(key: "sound " + file, "sound: \(problem); the level's sound plays instead")
                choice.file = nil
            }
            let sounds = attention.settings.sounds
            soundChild.play(.init(choice: choice, theme: sounds.theme, volume: sounds.volume,
                                   application: notification.appIdentity))
        case .runHook(let notification, let hook):
            hooks.run(hook, for: notification)
        case .focusChanged:
            followTheClock()  // a Focus on until a time ends with it
            announceFocus()
            badges.allMayHaveChanged(attention.unread.byApp.keys)
        case .overRateLimit(let app):
            Log.info("\(app) is over its rate limit; its notifications go quietly to the center for now")
        case .appStateChanged, .idsReserved:
            break  // written with the turn's commit (`record`)
        case .ruleTurnedOff(let rule, let app):
            Log.warning("rule \(rule): a pattern of it met its match budget on a notification of \(app) (it backtracks without end "
                        + "on some text); the rule is off until chimed restarts or `chimectl rule \(rule) enable`")
        }
    }

    /// The apps' settings and state, muting and a Focus turned on by hand, to disk if changed.
    func saveAppStateIfChanged() {
        guard appStateUnsaved else { return }
        appStateUnsaved = false
        appStore.save(attention.apps, muted: attention.muteOverride, focus: attention.focus.manual,
                      sharing: attention.focus.sharedByHand)
    }

    /// Once the main loop is idle (the turn's messages freed by then), hands freed memory back
    /// to the system: after a large call, so its megabytes do not stay with chimed. Once more a
    /// second later, for what libdbus let go of after that.
    func releaseMemorySoon() {
        guard !releaseScheduled else { return }
        releaseScheduled = true
        GLibSources.idle(priority: GLibSources.lowPriority) { [unowned self] in
            releaseScheduled = false
            chime_release_free_memory()
            GLibSources.timeout(milliseconds: 1_000) {
                chime_release_free_memory()
                return false
            }
            return false
        }
    }

    func announceBadges(_ changed: [(String, Badge)]) {
        let list = changed.map { app, badge in Self.badgeRecord(app, badge) }
        emitControl("BadgesChanged", [.array(elementSignature: "a{sv}", list), .uint32(UInt32(attention.unread.total))])
    }

    static func badgeRecord(_ app: String, _ badge: Badge) -> BusValue {
        .vardict([("app", .string(app)), ("count", .int64(Int64(badge.count))), ("visible", .bool(badge.visible))])
    }

    func announceFocus() {
        let name = attention.currentFocus?.name ?? ""
        Log.info(name.isEmpty ? "Focus off" : "Focus \(name) on (\(attention.currentFocus!.source.rawValue))")
        emitControl("FocusChanged", [.string(name), focusStatus()])
        control.emitPropertiesChanged(path: Self.controlPath, interface: controlSpec, [("ActiveFocus", .string(name))])
        objects.emitPropertiesChanged(path: Self.notificationsPath, interface: notificationsSpec,
                                      [("Inhibited", .bool(attention.focus.sharing))])
    }

    /// The activation token a presenter made for the click on notification `id`, taken.
    private func takeToken(_ id: UInt32) -> String { activationTokens.removeValue(forKey: id) ?? "" }

    /// For an action chosen where no presenter made a token (chimectl, a bar): an X11
    /// startup-notification id of chimed's own. Compositors do not honour it; a presenter's do.
    func activationToken(for notification: Notification) -> String {
        "chimed-\(getpid())-\(notification.id)_TIME\(GLibSources.monotonicMilliseconds())"
    }

    func emitNotifications(_ signal: String, _ arguments: [BusValue], to destination: String? = nil) {
        objects.emit(path: Self.notificationsPath, interface: notificationsSpec, signal: signal, arguments, to: destination)
    }

    func emitControl(_ signal: String, _ arguments: [BusValue]) {
        control.emit(path: Self.controlPath, interface: controlSpec, signal: signal, arguments)
    }
}
