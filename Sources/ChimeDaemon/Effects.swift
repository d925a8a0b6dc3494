import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import Glibc

/// What the core's events mean outside chimed, once the turn's replies are gone: signals (to
/// the sender only where the spec says so), the banners' process, the sound to chime-sound, the
/// rules' hooks, the portal's records. What leaves chimed for good, a sound or a hook, waits for
/// the turn's commit (`EffectQueue`).
final class Effects {
    private var queue = EffectQueue()
    /// Ids deleted from the center since the last `announceDeleted`, for one Deleted signal.
    private var deletedUnannounced: [BusValue] = []
    /// Activation tokens presenters made for clicks, by notification, until ActivationToken goes.
    var activationTokens: [UInt32: String] = [:]
    private let soundChild = SoundChild()
    /// The rules' `exec` commands, run beside chimed.
    private let hooks = HookRunner()
    private let signals: Signals
    private let presenter: PresenterChild
    private let portal: PortalBackend
    private let retired: RetiredCloser
    /// A Focus came on or went off: the clock to follow, the Focus to say, badges to count again.
    private let focusChanged: () -> Void

    init(signals: Signals, presenter: PresenterChild, portal: PortalBackend, retired: RetiredCloser,
         focusChanged: @escaping () -> Void) {
        (self.signals, self.presenter, self.portal, self.retired, self.focusChanged) = (signals, presenter, portal, retired, focusChanged)
    }

    func add(_ events: [ServerEvent]) { queue.add(events) }

    /// The person pressed an audio attachment's play button: it plays at once as asked, muted or
    /// not, at the configured volume (`sounds`).
    func playAttachment(of notification: Notification, index: Int, sounds: SoundSettings) throws(BusError) {
        let attachments = notification.request.hints.attachments
        guard attachments.indices.contains(index) else {
            throw .invalidArgs("notification \(notification.id) has \(attachments.count) attachment(s); there is none at index \(index)")
        }
        let attachment = attachments[index]
        guard attachment.kind == .audio else {
            throw .invalidArgs("attachment \(index) of notification \(notification.id) is \(attachment.kind.named), not an audio file")
        }
        guard access(attachment.path, R_OK) == 0 else {
            throw BusError(BusError.failed, "\(attachment.name) was deleted: its app's attachments were over their quota")
        }
        let plays = DescriptorBytes.reading(attachment.path) { bytes in
            CanberraFormat.plays(type: attachment.type, isA: { ContentTypes.type(attachment.type, isA: $0) }, bytes: bytes)
        } ?? false
        guard plays else {
            throw .invalidArgs("\(attachment.name) (\(attachment.type)) is audio Chime does not play itself (it plays Ogg Vorbis and 8 or 16-bit WAV); "
                               + "open it with the desktop's player: \(attachment.path)")
        }
        soundChild.play(.init(choice: SoundChoice(file: attachment.path, level: .active), theme: sounds.theme, volume: sounds.volume,
                              application: notification.request.appName))
    }

    /// At exit: the hooks still running are stopped.
    func stop() { hooks.stopAll() }

    /// The sounds and hooks of these notifications, whose Notify was refused, do not happen.
    func drop(madeBy refused: Set<UInt32>) { queue.drop(madeBy: refused) }

    /// The events whose effects are due now (`EffectQueue.take`), or nil when none are.
    func due(inTurn: Bool) -> [ServerEvent]? {
        queue.isDue(inTurn: inTurn) ? queue.take(inTurn: inTurn) : nil
    }

    /// One Deleted signal for all the center deleted since the last, not one per notification.
    func announceDeleted() {
        guard !deletedUnannounced.isEmpty else { return }
        signals.emitControl("Deleted", [.array(elementSignature: "u", deletedUnannounced)])
        deletedUnannounced = []
    }

    /// Does what `event` means; `sounds`: the sound settings in force.
    func handle(_ event: ServerEvent, sounds: SoundSettings) {
        portal.follow(event)
        switch event {
        case .presented(let notification):
            presenter.needed()
            signals.emitControl("Presented", [.uint32(notification.id), NotificationRecord.busValue(notification, asPresented: true)])
        case .updated(let notification, let previous):
            presenter.needed()
            signals.emitControl("Updated", [.uint32(notification.id), .uint32(previous),
                                            NotificationRecord.busValue(notification, asPresented: true)])
        case .stored(let notification):
            // Bars and scripts see what came without a banner too; a flood over its rate limit
            // costs no signal per notification.
            if notification.decision?.rateLimited ?? .admitted == .admitted {
                signals.emitControl("Stored", [.uint32(notification.id), NotificationRecord.busValue(notification, asPresented: true)])
            }
        case .read, .merged:
            break
        case .deleted(let id):
            deletedUnannounced.append(.uint32(id))
        case .withdrawn(let notification):
            // Replaced in place by one that is not shown: its banner comes down, the app is not told.
            signals.emitControl("Withdrawn", [.uint32(notification.id), .uint32(CloseReason.undefined.rawValue)])
        case .snoozed(let notification):
            // Off the screen but still open: presenters hide it, the app is not told.
            signals.emitControl("Withdrawn", [.uint32(notification.id), .uint32(CloseReason.dismissed.rawValue)])
        case .closed(let notification, let reason):
            signals.emitNotifications("NotificationClosed", [.uint32(notification.id), .uint32(reason.rawValue)])
            // Presenters hear only of what they were shown: a flood rate-limited into the center
            // costs one signal per notification, not two.
            if notification.state == .presented {
                signals.emitControl("Withdrawn", [.uint32(notification.id), .uint32(reason.rawValue)])
            }
        case .retired(let notification):
            // A banner leaves the screen now; the app hears of it, and the center marks it
            // closed, once the flood pauses (RetiredCloser).
            if notification.state == .presented {
                signals.emitControl("Withdrawn", [.uint32(notification.id), .uint32(CloseReason.expired.rawValue)])
            }
            retired.add(notification.id)
        case .actionInvoked(let notification, _) where notification.sender == Attention.selfSender:
            break
        case .actionInvoked where portal.say(event, token: takeToken), .replied where portal.say(event, token: takeToken):
            // Came through the notification portal: said back to it, under the app's names.
            break
        case .actionInvoked(let notification, let key):
            // The token comes first so the app may use it when it handles the action.
            let token = activationTokens.removeValue(forKey: notification.id) ?? Self.activationToken(for: notification)
            signals.emitNotifications("ActivationToken", [.uint32(notification.id), .string(token)], to: notification.sender)
            signals.emitNotifications("ActionInvoked", [.uint32(notification.id), .string(key)], to: notification.sender)
        case .replied(let notification, let text):
            signals.emitNotifications("NotificationReplied", [.uint32(notification.id), .string(text)], to: notification.sender)
        case .playSound(let notification, var choice):
            // The file may have changed since it was checked (an app's when its Notify came, one
            // chosen with chimectl when it was set), and one named in the config never was:
            // libcanberra would block its thread on a FIFO. Sounds are few (one a burst).
            if let file = choice.file, case .failure(let problem) = SoundFile.check(file) {
                Log.warningOnce(key: "sound " + file, "sound: \(problem); the level's sound plays instead")
                choice.file = nil
            }
            soundChild.play(.init(choice: choice, theme: sounds.theme, volume: sounds.volume, application: notification.appIdentity))
        case .runHook(let notification, let hook):
            hooks.run(hook, for: notification)
        case .focusChanged:
            focusChanged()
        case .overRateLimit(let app):
            Log.info("\(app) is over its rate limit; its notifications go quietly to the center for now")
        case .appStateChanged, .idsReserved:
            break  // written with the turn's commit (`Daemon.apply`, `CenterDisk.record`)
        case .ruleTurnedOff(let rule, let app):
            Log.warning("rule \(rule): a pattern of it met its match budget on a notification of \(app) (it backtracks without end "
                        + "on some text); the rule is off until chimed restarts or `chimectl rule \(rule) enable`")
        }
    }

    /// The activation token a presenter made for the click on notification `id`, taken.
    private func takeToken(_ id: UInt32) -> String { activationTokens.removeValue(forKey: id) ?? "" }

    /// For an action chosen where no presenter made a token (chimectl, a bar): an X11
    /// startup-notification id of chimed's own. Compositors do not honour it; a presenter's do.
    static func activationToken(for notification: Notification) -> String {
        "chimed-\(getpid())-\(notification.id)_TIME\(GLibSources.monotonicMilliseconds())"
    }
}
