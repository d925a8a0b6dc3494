import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimeStore
import CShims
import Glibc

/// chimed: the core's state (`attention`) on the bus, and the parts around it (ARCHITECTURE.md,
/// "chimed's parts"): intake and the portal bring notifications to `deliver`, the control
/// interface changes the core through `Core`, and `apply` hands each event to the center and
/// the effects. Owns the connections, the timers and start-up. Runs on the main thread, which
/// serves both connections from the GLib main loop.
///
/// The notification service and the control interface are served on connections of their own:
/// a sandbox allowed to talk to org.freedesktop.Notifications reaches that connection, which
/// answers only the freedesktop interface (and Introspectable, Peer, Properties), never the
/// control interface's history, replies, invocations or settings.
public final class Daemon: Core {
    static let notificationsPath = "/org/freedesktop/Notifications"
    static let controlPath = ControlProtocol.path
    static let notificationsName = "org.freedesktop.Notifications"
    static let controlName = ControlProtocol.name

    /// Owns org.freedesktop.Notifications and serves only that.
    let connection: BusConnection
    let objects: ObjectServer
    /// Owns dev.chime.Chime1 and serves the control interface, from the main loop; the badges'
    /// signals go from it too.
    let controlConnection: BusConnection
    let control: ObjectServer
    let loop = MainLoop()
    /// Who hears what chimed says.
    let signals: Signals
    /// The notification portal's backend, for sandboxed apps.
    private(set) lazy var portal = PortalBackend(
        environment: environment, decoder: decoder, identities: identities, control: control,
        deliver: { [unowned self] request, call, identity throws(RequestError) in try deliver(request, for: call, system: identity) },
        close: { [unowned self] id, sender, identity throws(RequestError) in try close(id, caller: sender, identity: identity) },
        isOpen: { [unowned self] in attention.server.notification($0) != nil })
    /// org.freedesktop.Notifications: Notify read once and handed to `deliver`.
    private(set) lazy var intake = Intake(
        spec: signals.notificationsSpec, decoder: decoder, identities: identities,
        deliver: { [unowned self] request, call, identity throws(RequestError) in try deliver(request, for: call, system: identity) },
        close: { [unowned self] id, sender, identity throws(RequestError) in try close(id, caller: sender, identity: identity) },
        inhibit: controlInterface.inhibiting { _ in FocusMode.sharing }, uninhibit: controlInterface.uninhibiting(),
        sharing: { [unowned self] in attention.focus.sharing })
    let decoder = NotifyDecoder()
    /// Who each client is, as the system says.
    let identities = SenderIdentities()
    let options: DaemonOptions
    let configLoader: ConfigLoader
    /// What is wrong in the config in force (each left out of it), for `chimectl status` and the panel.
    var configProblems: [ConfigLoader.Problem] = [] {
        didSet {
            guard configProblems != oldValue else { return }
            signals.controlPropertiesChanged([("ConfigProblems", .stringArray(configProblems.map(\.description)))])
        }
    }
    let appStore: AppStateStore
    var attention: Attention
    var exitCode: Int32 = 0
    var expiryTimer: DeadlineTimer?
    var snoozeTimer: DeadlineTimer?
    /// What events mean outside chimed, done once the turn's replies are gone (`apply`, `settle`).
    private(set) lazy var effects = Effects(signals: signals, presenter: presenter, portal: portal, retired: retired) { [unowned self] in
        followTheClock()  // a Focus on until a time ends with it
        announceFocus()
        badges.allMayHaveChanged(attention.unread.byApp.keys)
    }
    private var sessionMonitor: SessionMonitor?
    /// Whether the minute tick (`followTheClock`) is armed.
    var ticking = false
    /// Whether what apps.state keeps changed in this turn (`.appStateChanged`, `.focusChanged`).
    var appStateUnsaved = false
    /// dev.chime.Chime1: what a person does from chimectl, the panel, banners and bars.
    private(set) lazy var controlInterface = ControlInterface(
        core: self,
        config: .init(path: configLoader.path, base: options.baseSettings, problems: { [unowned self] in configProblems },
                      reload: { [unowned self] in reload() }),
        center: center, effects: effects, signals: signals, identities: identities, decoder: decoder, desktop: desktop,
        presenter: presenter, panelChild: panelChild)
    /// What chimed keeps: the center on disk, the attachments' copies, the day's figures.
    private(set) lazy var center = Center(
        stateFolder: AppStateStore.stateFolder(environment: environment), inTurn: { [unowned self] in objects.inTurn },
        limits: { [unowned self] in attention.settings.center },
        openAttachmentPaths: { [unowned self] in attention.server.notifications.flatMap { $0.request.hints.attachments.map(\.path) } },
        pruned: { [unowned self] ids in
            for id in ids { attention.unread.markRead(id) }
            badges.mayHaveChanged(attention.unread.takeChanged())
        })
    var store: NotificationStore? { center.store }
    /// Banners on the screen, drawn by a process of chimed's own when there is a display:
    /// chime-presenter (GTK), which draws the panel too, or chime-banners.
    let presenter: PresenterChild
    /// The panel's own chime-presenter, when chime-banners draws the banners.
    let panelPresenter: PresenterChild?
    /// What draws the panel.
    var panelChild: PresenterChild { panelPresenter ?? presenter }
    /// The focused window and fullscreen, as the display says.
    private(set) lazy var desktop = DesktopWatch(environment: environment, identities: identities) { [unowned self] context in
        apply(attention.follow(context, now: now))
    }
    let environment: [String: String]
    let clock = LocalClock()
    /// Notifications retired past the open limit whose apps are told once the flood pauses.
    lazy var retired = RetiredCloser { [unowned self] ids in closeRetired(ids) }
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
        case .success(let loaded):
            settings = loaded.settings
            configProblems = loaded.problems
            for problem in loaded.problems { Log.warning("\(problem)") }
        case .failure(let problem):
            configProblems = [problem]
            Log.warning("\(problem); using the default settings")
        }
        StateFolder.secure(AppStateStore.stateFolder(environment: environment))
        if PresenterChild.drawnBanners(environment: environment) {
            presenter = PresenterChild(environment: environment, configPath: configLoader.path, program: ["chime-banners"],
                                       fallback: ["chime-presenter", "--banners-only"])
            panelPresenter = PresenterChild(environment: environment, configPath: configLoader.path,
                                            program: ["chime-presenter", "--panel-only"])
        } else {
            presenter = PresenterChild(environment: environment, configPath: configLoader.path, program: ["chime-presenter"])
            panelPresenter = nil
        }
        attention = Attention(settings: settings)
        let saved = appStore.load()
        (attention.apps, attention.muteOverride) = (saved.apps, saved.muted)
        attention.focus.sharedByHand = saved.sharing
        // A Focus turned on or off by hand stays so across a restart until its own end or the
        // next boundary of its schedule (what ended meanwhile is dropped as the state is tidied);
        // one that names a Focus the config no longer has is dropped too.
        if let focus = saved.focus { attention.focus.restore(focus) }
        SoundTheme.makeFindable()
        connection = try BusConnection()
        objects = ObjectServer(connection: connection)
        controlConnection = try BusConnection()
        control = ObjectServer(connection: controlConnection, turn: objects.turn)
        signals = Signals(notifications: objects, control: control)
        expiryTimer = DeadlineTimer { [unowned self] in
            let events = attention.server.expire(now: now.monotonic)
            apply(events)
            // After a flood expires, hand the freed memory back instead of keeping the peak.
            if events.count > 256 { chime_release_free_memory() }
        }
        snoozeTimer = DeadlineTimer { [unowned self] in apply(attention.wakeSnoozed(now: now)) }
        // A turn's replies wait for what it changed to be durable: one commit for the turn.
        objects.turn.beforeSending = { [unowned self] in
            commitTurn()
            saveAppStateIfChanged()
        }
        objects.turn.beforeHandling = { [unowned self] in settle() }
        objects.turn.afterSending = { [unowned self] in
            settle()
            center.turnEnded()
        }
        presenter.hasWork = { [unowned self] in
            (panelPresenter == nil && controlInterface.centerOpen) || attention.server.notifications.contains { $0.state == .presented }
        }
        panelPresenter?.hasWork = { [unowned self] in controlInterface.centerOpen }
        panelChild.ended = { [unowned self] in controlInterface.showCenter(false) }
        objects.export(intake.interface(), at: Self.notificationsPath)
        control.export(controlInterface.interface(), at: Self.controlPath)
        control.export(portal.interface(), at: PortalBackend.path)
        try watchBus()
    }

    var now: Now { clock.now() }

    /// Rereads the config: as at start, a bad line or section is left out and said, and the rest
    /// applies; a file that cannot be read changes nothing. Returns what is wrong in it.
    func reload() -> [ConfigLoader.Problem] {
        switch configLoader.load(base: options.baseSettings) {
        case .success(let loaded):
            let settings = loaded.settings
            configProblems = loaded.problems
            for problem in loaded.problems { Log.warning("\(problem)") }
            apply(attention.apply(settings, now: now))
            presenter.follow(settings.popups)
            panelPresenter?.follow(settings.popups)
            badges.allMayHaveChanged(attention.unread.byApp.keys)
            center.prune()  // the limits may be lower now
            followTheClock()
            Log.info("reloaded \(configLoader.path)")
        case .failure(let problem):
            configProblems = [problem]
            Log.warning("\(problem); keeping the previous config")
        }
        return configProblems
    }

    /// Takes the bus names and serves until SIGTERM, SIGINT or the bus goes away.
    public func run(replace: Bool) -> Int32 {
        do {
            try NameOwnership(connection: connection).acquire([Self.notificationsName], replace: replace)
            try NameOwnership(connection: controlConnection).acquire([Self.controlName, PortalBackend.name], replace: replace)
        } catch {
            Log.info(error.message)
            return 1
        }
        if !options.noHistory, !openStore() { return 1 }
        center.prune()
        center.sweepAttachments()  // what a killed chimed copied for notifications it never kept
        presenter.follow(attention.settings.popups)
        panelPresenter?.follow(attention.settings.popups)
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
        followTheClock()
        center.housekeepIfDue()  // what start-up put back into the center
        GLibSources.timeout(milliseconds: Self.retentionCheck) { [unowned self] in
            center.housekeepSoon()
            return true
        }
        sessionMonitor = SessionMonitor { [unowned self] session in
            apply(attention.setLocked(session.locked))
            if session.away != attention.server.away {
                Log.info(session.away ? "the session is \(session.locked ? "locked" : "idle"); banners wait until you are back"
                                      : "the session is active again; banners start their timeouts anew")
                attention.server.setAway(session.away, now: now.monotonic)
                apply([])  // re-arms the expiry timer
            }
        }
        controlInterface.followMediaPlayers()
        for signal in [SIGTERM, SIGINT] {
            GLibSources.unixSignal(signal) { [unowned self] in
                Log.info("shutting down")
                loop.quit()
                return true
            }
        }
        Log.info("serving \(Self.notificationsName) as \(connection.uniqueName)")
        loop.run()
        // What was retired is closed: the center should say so, and apps still on the bus hear it.
        retired.tellAll()
        center.close(lastID: attention.server.ids.current)
        presenter.stop()
        panelPresenter?.stop()
        effects.stop()
        connection.releaseName(Self.notificationsName)
        controlConnection.releaseName(Self.controlName)
        connection.flush()
        controlConnection.flush()
        return exitCode
    }

    /// A notification a call brought (Notify, or the portal's AddNotification), made
    /// (`notify`), and the call promised its id, which it is answered with once the turn's
    /// commit keeps it. `system`: who sent it, as the system says.
    func deliver(_ request: NotificationRequest, for call: MethodCall, system: SenderIdentity?) throws(RequestError) -> UInt32 {
        let id = try notify(request, from: call.sender, system: system, now: now)
        center.promise(call.message, id: id)
        return id
    }

    /// A notification made: its files kept, decided, and what it made recorded (in the turn's
    /// transaction, during one). `now` is read once by the caller: the notification and its row
    /// keep the same time. `given`: the id its app already holds (a call chimed 0.1.0 answered).
    func notify(_ request: NotificationRequest, from sender: String, system: SenderIdentity?, now: Now,
                id given: UInt32? = nil) throws(RequestError) -> UInt32 {
        var request = request
        try center.keepAttachments(of: &request, system: system, wall: now.wall) { app in
            attention.apps.settings(for: app, config: attention.settings).attachmentBytes
        }
        let (id, events) = try attention.notify(request, from: sender, system: system, now: now, id: given)
        apply(events, wall: now.wall)
        return id
    }

    /// CloseNotification, from a Notify's sender or the portal: as the core allows the caller.
    func close(_ id: UInt32, caller: String, identity: SenderIdentity?) throws(RequestError) {
        apply(try attention.server.close(id, caller: caller, identity: identity))
    }

    /// Stores what the core's events changed, at once: a reply waits for that to be durable.
    /// What else they mean (signals, unread counts and badges, timers) is settled once the
    /// turn's replies are gone, or before its next message (`settle`), so a Notify's reply does
    /// not wait for it; outside a bus turn, at once.
    /// `wall`: the store's timestamp, unix milliseconds; a Notify passes the one its notification
    /// keeps as when it came, so the center's `created` is the same time `List` shows.
    func apply(_ events: [ServerEvent], wall: Int64) {
        if !events.isEmpty {
            center.inOneTransaction {
                for event in events { center.record(event, wall: wall) }
            }
            // Kept across restarts (a Focus turned on or off by hand is too): saved with this
            // turn's commit, once however many changes it brought.
            if events.contains(where: \.changesAppState) { appStateUnsaved = true }
        }
        effects.add(events)
        if !objects.inTurn {
            saveAppStateIfChanged()
            settle()
        }
    }
}
