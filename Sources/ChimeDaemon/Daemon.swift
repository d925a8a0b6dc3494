import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimeSound
import ChimeStore
import CShims
import Glibc

/// chimed: the core's state on the bus. Owns the two connections, the open notifications and
/// the one expiry timer; turns the core's events into signals. Runs on the main thread; the bus thread
/// (`BusConnection.attachToBusThread`) answers what Notify calls it can before handing them over (`EarlyNotify`).
///
/// The notification service and the control interface are served on connections of their own:
/// a sandbox allowed to talk to org.freedesktop.Notifications reaches that connection, which
/// answers only the freedesktop interface (and Introspectable, Peer, Properties), never the
/// control interface's history, replies, invocations or settings.
public final class Daemon {
    static let notificationsPath = "/org/freedesktop/Notifications"
    static let controlPath = ControlProtocol.path
    static let notificationsName = "org.freedesktop.Notifications"
    static let controlName = ControlProtocol.name

    /// Owns org.freedesktop.Notifications and serves only that, from the bus thread.
    let connection: BusConnection
    let objects: ObjectServer
    /// Owns dev.chime.Chime1 and serves the control interface, from the main loop; the badges'
    /// signals go from it too.
    let controlConnection: BusConnection
    let control: ObjectServer
    let loop = MainLoop()
    let notificationsSpec = InterfaceSpec.load("org.freedesktop.Notifications.xml")[0]
    let controlSpec = InterfaceSpec.load("dev.chime.Chime1.xml")[0]
    let portalSpec = InterfaceSpec.load("org.freedesktop.impl.portal.Notification.xml")[0]
    /// Notifications that came through the notification portal (`PortalBackend`).
    var portalNotifications = PortalRegistry()
    /// Where the portal's icons and sounds, passed as descriptors, are kept as files.
    private(set) lazy var portalFiles = PortalFiles(environment: environment)
    let decoder = NotifyDecoder()
    /// Notify's part on the bus thread; it shares the server's ids and the repeat detector's gate.
    let earlyNotify: EarlyNotify
    /// Who each client is, as the system says; the bus thread and the main thread both ask.
    let identities = SenderIdentities()
    let options: DaemonOptions
    let configLoader: ConfigLoader
    let appStore: AppStateStore
    var attention: Attention
    private(set) var exitCode: Int32 = 0
    private var expiryTimer: DeadlineTimer?
    private var snoozeTimer: DeadlineTimer?
    /// Events stored but not yet settled (`apply`), and whether a settle is due.
    private var unsettled: [ServerEvent] = []
    private var needsSettling = false
    /// Ids deleted from the center this turn, for one Deleted signal.
    private var deletedUnannounced: [BusValue] = []
    private var sessionMonitor: SessionMonitor?
    /// Activation tokens presenters made for clicks, by notification, until ActivationToken goes.
    var activationTokens: [UInt32: String] = [:]
    private let soundPlayer: SoundPlayer
    /// Whether the panel is open (`ShowCenter`); chime-presenter draws it.
    var centerOpen = false
    /// What reached the person since the center last took the figures (`addActivity`).
    var activity = ActivityTally()
    /// The rules' `exec` commands, run beside chimed.
    private let hooks = HookRunner()
    /// The center on disk; nil when it cannot be opened (chimed then runs without history).
    /// Opened once chimed owns its names, so a second chimed hears about the name first.
    private(set) var store: NotificationStore?
    /// The Notify calls answered before they were handled, kept until the center has them.
    private var journal: CallJournal?
    /// The journal's sequence number of the last answered call handled.
    var handledInJournal: Int64 = 0
    private let storePath: String
    /// Banners on the screen, drawn by a process of chimed's own when there is a display.
    let presenter: PresenterChild
    /// The focused window and fullscreen, as the display says.
    private(set) lazy var desktop = DesktopWatch(environment: environment, identities: identities) { [unowned self] context in
        apply(attention.follow(context, now: now))
    }
    private let environment: [String: String]
    let clock = LocalClock()
    /// Notifications retired past the open limit whose apps are told once the flood pauses.
    private lazy var retired = RetiredCloser { [unowned self] ids in closeRetired(ids) }
    lazy var badges: BadgeBoard = {
        let board = BadgeBoard(objects: control, current: { [unowned self] in attention.badge(for: $0) },
                               changed: { [unowned self] in announceBadges($0) })
        board.sendsOwnCount = { [unowned self] in attention.appsWithOwnBadges.contains($0) }
        return board
    }()

    public init(options: DaemonOptions, environment: [String: String]) throws(BusError) {
        self.options = options
        self.environment = environment
        configLoader = ConfigLoader(path: options.configPath ?? ConfigLoader.defaultPath(environment: environment),
                                    required: options.configPath != nil)
        appStore = AppStateStore(path: AppStateStore.defaultPath(environment: environment))
        var settings = options.baseSettings
        switch configLoader.load(base: settings) {
        case .success(let loaded): settings = loaded
        case .failure(let failure): Log.warning("\(failure); using the default settings")
        }
        StateFolder.secure(AppStateStore.stateFolder(environment: environment))
        storePath = AppStateStore.stateFolder(environment: environment) + "/chime.db"
        presenter = PresenterChild(environment: environment, configPath: configLoader.path)
        attention = Attention(settings: settings)
        earlyNotify = EarlyNotify(ids: attention.server.ids, gate: attention.repeatGate, identities: identities)
        earlyNotify.follow(settings)
        let saved = appStore.load()
        (attention.apps, attention.muteOverride) = (saved.apps, saved.muted)
        attention.focus.sharedByHand = saved.sharing
        // A Focus turned on by hand stays on across a restart; one that names a Focus the
        // config no longer has is dropped when the state is next tidied.
        if let focus = saved.focus, settings.focus(named: focus.name) != nil {
            attention.focus.turnOn(focus.name, until: focus.until)
        }
        SoundTheme.makeFindable()
        soundPlayer = SoundPlayer { Log.debug($0) }
        connection = try BusConnection()
        objects = ObjectServer(connection: connection, serving: .busThread)
        controlConnection = try BusConnection()
        control = ObjectServer(connection: controlConnection, serving: .mainLoop, turn: objects.turn)
        control.beforeEachCall = { [connection] in connection.catchUp() }
        expiryTimer = DeadlineTimer { [unowned self] in
            let events = attention.server.expire(now: now.monotonic)
            apply(events)
            // After a flood expires, hand the freed memory back instead of keeping the peak.
            if events.count > 256 { chime_release_free_memory() }
        }
        snoozeTimer = DeadlineTimer { [unowned self] in apply(attention.wakeSnoozed(now: now)) }
        // A turn's replies wait for what it changed to be durable; its new notifications already
        // are (the store's intake log), so SQLite takes them after the replies, in batches, and
        // the log makes room for the next turns' rows then too.
        objects.turn.beforeSending = { [unowned self] in
            store?.commitTransaction()
            journal?.settle(through: handledInJournal)
            saveAppStateIfChanged()
        }
        objects.turn.beforeHandling = { [unowned self] in settle() }
        objects.turn.afterSending = { [unowned self] in
            settle()
            store?.makeRoomInIntakeLog()
            journal?.tidy()
            commitIntakeSoon()
            if rowsSincePrune >= Self.pruneEveryRows { prune(batch: rowsSincePrune) }
        }
        presenter.hasWork = { [unowned self] in
            centerOpen || attention.server.notifications.contains { $0.state == .presented }
        }
        presenter.ended = { [unowned self] in showCenter(false) }
        objects.export(notificationsInterface(), at: Self.notificationsPath)
        control.export(controlInterface(), at: Self.controlPath)
        control.export(portalInterface(), at: Self.portalPath)
        try watchBus()
    }

    var now: Now { clock.now() }

    /// Rereads the config; a bad file changes nothing and the error says where it is wrong.
    func reload() -> ConfigLoader.Failure? {
        switch configLoader.load(base: options.baseSettings) {
        case .success(let settings):
            apply(attention.apply(settings, now: now))
            earlyNotify.follow(attention.settings)
            presenter.follow(settings.popups)
            badges.allMayHaveChanged(attention.unread.byApp.keys)
            prune()  // the limits may be lower now
            Log.info("reloaded \(configLoader.path)")
            return nil
        case .failure(let failure):
            Log.warning("\(failure); keeping the previous config")
            return failure
        }
    }

    /// Every minute, on the minute: Focus schedules and summary times.
    private func scheduleTick() {
        GLibSources.timeout(milliseconds: LocalClock.untilNextMinute()) { [unowned self] in
            apply(attention.tick(now: now))
            scheduleTick()
            return false
        }
    }

    /// Takes the bus names and serves until SIGTERM, SIGINT or the bus goes away.
    public func run(replace: Bool) -> Int32 {
        do {
            try NameOwnership(connection: connection).acquire([Self.notificationsName], replace: replace)
            try NameOwnership(connection: controlConnection).acquire([Self.controlName, Self.portalName], replace: replace)
        } catch {
            Log.info(error.message)
            return 1
        }
        if !options.noHistory, !openStore() { return 1 }
        prune()
        presenter.follow(attention.settings.popups)
        desktop.start()
        // A parent may hand us a blocked signal mask (some process launchers do); a daemon
        // that cannot hear SIGTERM cannot shut down cleanly.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&stopSignals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        // Past a file-size limit (ulimit -f) a write should fail, and the store say so once,
        // rather than the signal killing the daemon.
        signal(SIGXFSZ, SIG_IGN)
        GLibSources.unixSignal(SIGHUP) { [unowned self] in
            _ = reload()
            return true
        }
        apply(attention.tick(now: now))
        scheduleTick()
        GLibSources.timeout(milliseconds: 5_000) { [unowned self] in
            keepActivity()
            store?.checkpoint()
            prune()
            return true
        }
        sessionMonitor = SessionMonitor { [unowned self] session in
            attention.locked = session.locked
            if session.away != attention.server.away {
                Log.info(session.away ? "the session is \(session.locked ? "locked" : "idle"); banners wait until you are back"
                                      : "the session is active again; banners start their timeouts anew")
                attention.server.setAway(session.away, now: now.monotonic)
                apply([])  // re-arms the expiry timer
            }
        }
        for signal in [SIGTERM, SIGINT] {
            GLibSources.unixSignal(signal) { [unowned self] in
                Log.info("shutting down")
                loop.quit()
                return true
            }
        }
        Log.info("serving \(Self.notificationsName) as \(connection.uniqueName)")
        objects.start()
        loop.run()
        // Calls answered and not yet handled are handled now; the rest stay unanswered.
        objects.stop()
        // What was retired is closed: the center should say so, and apps still on the bus hear it.
        retired.tellAll()
        keepActivity()
        store?.checkpoint()
        // Every call answered was handled and is in the center now: nothing to read back at start.
        if store != nil { journal?.clear() }
        presenter.stop()
        hooks.stopAll()
        connection.releaseName(Self.notificationsName)
        controlConnection.releaseName(Self.controlName)
        connection.flush()
        controlConnection.flush()
        return exitCode
    }

    /// Opens the center on disk and puts back what it held; when it cannot be opened chimed runs
    /// on without history. False when another chimed holds the file.
    private func openStore() -> Bool {
        do {
            let store = try NotificationStore(path: storePath) { key, message in
                Log.warningOnce(key: "store-" + key, message)
            }
            store.keptChanged = { problem in
                guard problem == nil else { return }  // the failure itself was said as it happened
                Log.info("history is kept again: the center has every notification chimed answered")
                Log.forgetSaid(prefix: "store-")
            }
            let journal = CallJournal(path: storePath + "-calls")
            let unsettled = journal?.unsettled() ?? []
            attention.server.ids.current = max(store.highestID(), unsettled.map(\.id).max() ?? 0)
            attention.server = NotificationServer(settings: attention.settings.server, ids: attention.server.ids)
            self.store = store
            resumeCenter(from: store)
            handleAgain(unsettled, store: store)
            journal?.clear()
            self.journal = journal
            earlyNotify.keep(in: journal)
            if journal == nil { Log.warning("cannot open \(storePath)-calls; Notify is answered once the center has it") }
        } catch where error.isLocked {
            Log.info("\(error); stop it first, or give this chimed its own XDG_STATE_HOME")
            return false
        } catch {
            Log.warning("cannot open the notification store: \(error); running without history")
        }
        return true
    }

    /// At start: the calls an earlier chimed answered and stopped before the center had them
    /// (killed), made into notifications now, under the ids their apps were given.
    private func handleAgain(_ calls: [CallJournal.Call], store: NotificationStore) {
        var handled = 0
        for call in calls where !store.contains(call.id) {
            guard let message = Message(marshalled: call.bytes), let request = try? decoder.decode(message) else { continue }
            // The model and the center both take the time the call came, not the restart's.
            var now = now
            now.wall = call.wall
            guard let (_, events) = try? attention.notify(request, from: call.sender, now: now, id: call.id) else { continue }
            apply(events, wall: call.wall)
            handled += 1
        }
        store.commit()
        if handled > 0 { Log.info("put \(handled) notification(s) into the center that chimed had answered before it stopped") }
    }

    /// Forgets clients that leave, and stops when the bus goes or another chimed takes over.
    private func watchBus() throws(BusError) {
        try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg2=''")
        objects.watchSignals { [unowned self] message in
            if message.interface == "org.freedesktop.DBus", message.member == "NameOwnerChanged" {
                if case .string(let name) = message.arguments.first, name.hasPrefix(":") {
                    identities.forget(name)
                    apply(attention.clientLeft(name, now: now))
                }
            } else {
                exitIfLost(Self.notificationsName, message)
            }
        }
        // Apps' own badges (Telegram, Thunderbird): heard on the connection chimed's own go from.
        try controlConnection.addMatch("type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'")
        control.watchSignals { [unowned self] message in
            if message.interface == "com.canonical.Unity.LauncherEntry" {
                heardLauncherEntry(message)
            } else {
                exitIfLost(Self.controlName, message)
            }
        }
    }

    /// An app's own LauncherEntry Update (not chimed's): its count replaces Chime's for docks, and
    /// zero reads its notifications (`Attention.ownBadgeSent`).
    private func heardLauncherEntry(_ message: Message) {
        guard message.member == "Update", message.sender != controlConnection.uniqueName, message.sender != connection.uniqueName,
              message.arguments.count == 2, let uri = message.arguments[0].string, let app = BadgeBoard.app(fromURI: uri),
              let properties = message.arguments[1].vardictEntries, case .int64(let count)? = properties["count"] else { return }
        let (new, events) = attention.ownBadgeSent(by: app, count: count)
        if new {
            Log.info("\(app) sends its own badge count; docks get its count instead of Chime's")
            badges.appSendsOwnCount(app)
        }
        apply(events)
    }

    /// Stops when a connection's name goes to another chimed (`--replace`) or the bus goes away.
    private func exitIfLost(_ name: String, _ message: Message) {
        switch (message.interface, message.member) {
        case ("org.freedesktop.DBus", "NameLost") where message.arguments.first == .string(name):
            Log.info("another server took \(name); exiting")
            loop.quit()
        case ("org.freedesktop.DBus.Local", "Disconnected"):
            Log.info("the session bus went away; exiting")
            exitCode = 1
            loop.quit()
        default:
            break
        }
    }

    /// Stores what the core's events changed, at once: a reply waits for that to be durable.
    /// What else they mean (signals, unread counts and badges, timers) is settled once the
    /// turn's replies are gone, or before its next message (`settle`), so a Notify's reply does
    /// not wait for it; outside a bus turn, at once.
    /// `wall`: the store's timestamp, unix milliseconds; a Notify passes the one its notification
    /// keeps as when it came, so the center's `created` is the same time `List` shows.
    func apply(_ events: [ServerEvent], wall: Int64 = LocalClock.wallMilliseconds()) {
        inOneTransaction {
            for event in events { record(event, wall: wall) }
        }
        // A Focus turned on or off by hand is kept across restarts; changes are rare, so
        // every one saves: once a turn, with its store commit, before its replies.
        if attention.focusChanged { attention.apps.needsSaving = true }
        // Usually nothing waits: take the array rather than copy its events into another.
        if unsettled.isEmpty { unsettled = events } else { unsettled += events }
        needsSettling = true
        if !objects.inTurn {
            saveAppStateIfChanged()
            settle()
        }
    }

    /// The apps' settings and state, muting and a Focus turned on by hand, to disk if changed.
    private func saveAppStateIfChanged() {
        guard attention.apps.needsSaving else { return }
        attention.apps.needsSaving = false
        appStore.save(attention.apps, muted: attention.muteOverride, focus: attention.focus.manualFocus,
                      sharing: attention.focus.sharedByHand)
    }

    /// Sends what applied events mean, then re-arms the timers and announces badges.
    private func settle() {
        guard needsSettling else { return }
        needsSettling = false
        for event in unsettled { handle(event) }
        unsettled.removeAll(keepingCapacity: true)
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
        if attention.focusChanged {
            attention.focusChanged = false
            announceFocus()
            badges.allMayHaveChanged(attention.unread.byApp.keys)
        }
        for app in attention.newlyRateLimited {
            Log.info("\(app) is over its rate limit; its notifications go quietly to the center for now")
        }
        attention.newlyRateLimited = []
    }

    private func handle(_ event: ServerEvent) {
        attention.unread.observe(event)
        activity.count(event, day: clock.localTime(unixMilliseconds: LocalClock.wallMilliseconds()).day)
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
        case .read:
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
            portalNotifications.forget(notification.id)
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
        case .actionInvoked where sayToPortal(event), .replied where sayToPortal(event):
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
            soundPlayer.play(.init(choice: choice, theme: sounds.theme, volume: sounds.volume,
                                   application: notification.appIdentity))
        case .runHook(let notification, let hook):
            hooks.run(hook, for: notification)
        }
    }

    /// Keeps the center on disk in step; transient notifications and those the app keeps out
    /// of the center are not stored.
    private func record(_ event: ServerEvent, wall: Int64) {
        guard let store else { return }
        switch event {
        case .presented(let notification), .updated(let notification, _), .stored(let notification), .withdrawn(let notification),
             .snoozed(let notification):
            if notification.decision?.inCenter != false, !notification.request.hints.transient {
                store.record(notification, wall: wall)
                rowsSincePrune += 1
            }
        case .closed(let notification, let reason):
            store.recordClosed(notification.id, reason: reason, wall: wall)
        case .read(let id, let dismissed):
            store.markRead(id, dismissed: dismissed, wall: wall)
        case .deleted(let id):
            store.delete(id)
        case .actionInvoked(let notification, _), .replied(let notification, _):
            store.markRead(notification.id, dismissed: false, wall: wall)
        case .retired, .playSound, .runHook:
            break
        }
    }

    /// After a restart: what was held or snoozed is held again, unread counts are as they were,
    /// and docks hear every badge.
    private func resumeCenter(from store: NotificationStore) {
        let released = attention.resume(store.held().map(decoder.rechecked), now: now)
        for (id, app) in store.unread() { attention.unread.markUnread(id, app: app) }
        badges.announceAll(attention.unread.takeChanged())
        apply(released)
    }

    /// NotificationClosed, reason 1, for notifications retired past the open limit, and the center
    /// marks them closed; one put back meanwhile (restored from the center) is open again.
    private func closeRetired(_ ids: [UInt32]) {
        let wall = LocalClock.wallMilliseconds()
        inOneTransaction {
            for id in ids where attention.server.notification(id) == nil {
                emitNotifications("NotificationClosed", [.uint32(id), .uint32(CloseReason.expired.rawValue)])
                store?.recordClosed(id, reason: .expired, wall: wall)
            }
        }
    }

    /// The store writes `writes` makes, in one transaction. During a bus turn it commits at the
    /// turn's end (`beforeSending`, `afterSending`); from a timer or an idle callback, now.
    func inOneTransaction(_ writes: () -> Void) {
        store?.holdCommits()
        writes()
        if !objects.inTurn { store?.commit() }
    }

    /// Whether the timer that moves the intake's rows into SQLite is armed.
    private var intakeCommitScheduled = false
    static let intakeCommitRows = 256
    static let intakeCommitDelay: UInt32 = 250

    /// Moves the rows recorded into SQLite a quarter of a second after the first, or at once past
    /// 256: none of SQLite's work follows a lone reply. Committing after each reply cost a
    /// sequence of calls from a quiet machine a third more time a call (measured; see git log):
    /// chimed was still writing when the next call came. Batched, each commit also rewrites each
    /// page it touched once for many rows (the table's last, partial one, the header page, the
    /// log's position). The intake log has the rows meanwhile; whatever reads the store applies
    /// them first (`NotificationStore.database`), and a close of one still there follows it into
    /// the intake (`recordClosed`).
    private func commitIntakeSoon() {
        guard let store, store.uncommittedRows > 0 else { return }
        if store.uncommittedRows >= Self.intakeCommitRows { return store.commit() }
        guard !intakeCommitScheduled else { return }
        intakeCommitScheduled = true
        _ = GLibSources.timeout(milliseconds: Self.intakeCommitDelay) { [unowned self] in
            intakeCommitScheduled = false
            self.store?.commit()
            return false
        }
    }

    private var releaseScheduled = false

    /// Once the main loop is idle (the turn's messages freed by then), hands freed memory back
    /// to the system: after a large call, so its megabytes do not stay with chimed. Once more a
    /// second later, for what the bus thread let go of after the main thread was done with it.
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

    /// Rows the center took since the last prune; past `pruneEveryRows` a flood prunes as it goes.
    private var rowsSincePrune = 0
    static let pruneEveryRows = 1_000

    /// Retention: deletes old entries in short batches, each in its own main-loop turn, so
    /// pruning thousands never holds the bus for long. At start, on reload, every 5 seconds,
    /// and after each thousand rows a flood brings (`batch` as many as it brought): waiting for
    /// the timer, the table grew by seconds of a flood, and the file kept that size.
    private func prune(batch: Int = 500) {
        guard let store else { return }
        rowsSincePrune = 0
        let center = attention.settings.center
        let deleted = store.prune(maximumEntries: center.maximumEntries,
                                  cutoff: LocalClock.wallMilliseconds() - center.maximumAgeSeconds * 1_000, limit: batch)
        for id in deleted { attention.unread.markRead(id) }
        badges.mayHaveChanged(attention.unread.takeChanged())
        if deleted.count == batch {
            GLibSources.idle(priority: GLibSources.lowPriority) { [unowned self] in
                prune()
                return false
            }
        }
    }

    private func announceBadges(_ changed: [(String, Badge)]) {
        let list = changed.map { app, badge in Self.badgeRecord(app, badge) }
        emitControl("BadgesChanged", [.array(elementSignature: "a{sv}", list), .uint32(UInt32(attention.unread.total))])
    }

    static func badgeRecord(_ app: String, _ badge: Badge) -> BusValue {
        .vardict([("app", .string(app)), ("count", .int64(Int64(badge.count))), ("visible", .bool(badge.visible))])
    }

    private func announceFocus() {
        let name = attention.currentFocus?.name ?? ""
        Log.info(name.isEmpty ? "Focus off" : "Focus \(name) on (\(attention.currentFocus!.source.rawValue))")
        emitControl("FocusChanged", [.string(name), focusStatus()])
        control.emitPropertiesChanged(path: Self.controlPath, interface: controlSpec, [("ActiveFocus", .string(name))])
        objects.emitPropertiesChanged(path: Self.notificationsPath, interface: notificationsSpec,
                                      [("Inhibited", .bool(attention.focus.sharing))])
    }

    /// For an action chosen where no presenter made a token (chimectl, a bar): an X11
    /// startup-notification id of chimed's own. Compositors do not honour it; a presenter's do.
    private func activationToken(for notification: Notification) -> String {
        "chimed-\(getpid())-\(notification.id)_TIME\(GLibSources.monotonicMilliseconds())"
    }

    private func emitNotifications(_ signal: String, _ arguments: [BusValue], to destination: String? = nil) {
        objects.emit(path: Self.notificationsPath, interface: notificationsSpec, signal: signal, arguments, to: destination)
    }

    func emitControl(_ signal: String, _ arguments: [BusValue]) {
        control.emit(path: Self.controlPath, interface: controlSpec, signal: signal, arguments)
    }
}
