import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import CShims
import Glibc

/// What a program that draws chimed's banners does as a client of the control interface: it
/// shows what `Presented` and `Updated` say and hides what `Withdrawn` says, starting from what
/// is on screen already (`List`); it reloads on SIGHUP, ends on SIGTERM or when chimed goes, and
/// exits after `[popups] idle-exit` with nothing to draw, so chimed starts it for the next one.
public final class BannerFeed {
    /// The panel, in the program that draws it (chime-presenter): what it hears and shows.
    public struct Panel {
        public var heard: (String?) -> Void
        public var open: () -> Void
        public var close: () -> Void
        public var isOpen: () -> Bool
        public var reload: (ChimeSettings) -> Void

        public init(heard: @escaping (String?) -> Void, open: @escaping () -> Void, close: @escaping () -> Void,
                    isOpen: @escaping () -> Bool, reload: @escaping (ChimeSettings) -> Void) {
            self.heard = heard
            self.open = open
            self.close = close
            self.isOpen = isOpen
            self.reload = reload
        }
    }

    static let controlName = ControlProtocol.name
    static let controlPath = ControlProtocol.path

    private let connection: BusConnection
    private let board: BannerBoard?
    private let panel: Panel?
    private let loop = MainLoop()
    private var idleExit: Duration
    private var exitStatus: Int32 = 0
    /// Called on each reload (SIGHUP, from `chimectl reload`) once the config is read again: a
    /// status to leave with, or nil to go on.
    public var reloaded: () -> Int32? = { nil }
    private var idle: DeadlineTimer!

    /// `board`: the banners, nil in a program that draws only the panel.
    public init(connection: BusConnection, board: BannerBoard?, panel: Panel?, idleExit: Duration) {
        self.connection = connection
        self.board = board
        self.panel = panel
        self.idleExit = idleExit
        idle = DeadlineTimer { [unowned self] in
            exitStatus = ControlProtocol.idleExit
            loop.quit()
        }
    }

    /// What a program that draws does first: it ends with chimed, whatever way chimed ends; reads
    /// the config chimed named; and reaches the session bus. nil, with why in the log, without a bus.
    public static func start(program: String, configPath: String?, environment: [String: String])
        -> (config: ConfigLoader, settings: ChimeSettings, connection: BusConnection)? {
        chime_end_with_parent()
        let config = ConfigLoader(path: configPath ?? ConfigLoader.defaultPath(environment: environment))
        let settings = (try? config.load(base: .init()).get())?.settings ?? ChimeSettings()
        do {
            return (config, settings, try BusConnection())
        } catch {
            Log.info("\(program): cannot reach the session bus: \(error.message)")
            return nil
        }
    }

    /// Sends a call to chimed's control interface, without waiting for its answer.
    public static func call(_ connection: BusConnection, _ method: String, _ arguments: [BusValue]) {
        connection.send(.methodCall(destination: controlName, path: controlPath, interface: controlName,
                                    method: method, arguments: arguments))
    }

    /// Serves until chimed goes, SIGTERM, or the idle exit; returns the exit status.
    public func run(config: ConfigLoader) -> Int32 {
        do {
            // Only what it draws: the center's Stored signals, badges and Focus changes wake it
            // only while the panel is open (the panel adds its own matches).
            var members = ["CenterShown"]
            if board != nil { members += ["Presented", "Updated", "Withdrawn"] }
            for member in members {
                try connection.addMatch("type='signal',sender='\(Self.controlName)',interface='\(Self.controlName)',path='\(Self.controlPath)',member='\(member)'")
            }
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.controlName)'")
        } catch {
            Log.info("presenter: \(error.message)")
            return 1
        }
        connection.attachToMainLoop(handler: { [unowned self] message in
            guard heard(message) else { return false }
            followScreen()
            return true
        }, turnEnded: { [unowned self] in board?.arrange() })
        if board != nil {
            showWhatIsPresented()
            board?.arrange()
        }
        // The panel, if it was opened before this process started (it is started for it).
        if (try? connection.call(.methodCall(destination: Self.controlName, path: Self.controlPath, interface: Self.controlName,
                                             method: "GetStatus", arguments: [])))?.first?.vardictEntries?["center-open"]?.bool == true {
            centerShown(true)
        }
        followScreen()
        GLibSources.unixSignal(SIGHUP) { [unowned self] in
            if let reloaded = try? config.load(base: .init()).get().settings {
                board?.update(reloaded.popups)
                panel?.reload(reloaded)
                idleExit = reloaded.popups.idleExit
                followScreen()
            }
            if let status = reloaded() {
                exitStatus = status
                loop.quit()
            }
            return true
        }
        GLibSources.unixSignal(SIGTERM) { [unowned self] in
            loop.quit()
            return true
        }
        loop.run()
        return exitStatus
    }

    /// Handles one message from the bus; false for one it does not take.
    private func heard(_ message: Message) -> Bool {
        switch (message.interface, message.member) {
        case (Self.controlName, "Presented"):
            let arguments = message.arguments
            if arguments.count == 2, case .uint32(let id) = arguments[0] {
                board?.show(BannerContent(id: id, record: arguments[1].vardictEntries ?? [:]))
            }
            panel?.heard(message.member)
        case (Self.controlName, "Updated"):
            let arguments = message.arguments
            if arguments.count == 3, case .uint32(let id) = arguments[0], case .uint32(let previous) = arguments[1] {
                board?.show(BannerContent(id: id, record: arguments[2].vardictEntries ?? [:]), replacing: previous)
            }
            panel?.heard(message.member)
        case (Self.controlName, "Withdrawn"):
            if case .uint32(let id)? = message.arguments.first { board?.hide(id) }
            panel?.heard(message.member)
        case (Self.controlName, "CenterShown"):
            if case .bool(let open)? = message.arguments.first { centerShown(open) }
        case (Self.controlName, _), ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
            panel?.heard(message.member)
        case ("org.freedesktop.DBus", "NameOwnerChanged"), ("org.freedesktop.DBus.Local", "Disconnected"):
            loop.quit()  // chimed went away
        default:
            return false
        }
        return true
    }

    /// The panel opened or closed: the program that draws it opens or closes it, and banners
    /// wait off the screen while it is open.
    private func centerShown(_ open: Bool) {
        guard let panel else {
            board?.suspended = open
            return
        }
        if open { panel.open() } else { panel.close() }
        board?.suspended = panel.isOpen()
    }

    /// What is on screen already: banners presented before this process started, page by page.
    private func showWhatIsPresented() {
        var after = ""
        repeat {
            let options: [(String, BusValue)] = after.isEmpty ? [] : [("after", .string(after))]
            guard let page = try? connection.call(.methodCall(destination: Self.controlName, path: Self.controlPath,
                                                              interface: Self.controlName, method: "List", arguments: [.vardict(options)])),
                  page.count == 2 else { break }
            for record in page[0].records where record["state"]?.string == "presented" {
                if let id = record["id"]?.integer { board?.show(BannerContent(id: UInt32(id), record: record)) }
            }
            after = page[1].string ?? ""
        } while !after.isEmpty
    }

    /// With nothing on screen for `idle-exit`, it exits: chimed starts it for the next banner.
    private func followScreen() {
        let wait = idleExit.milliseconds
        let busy = board?.isShowing == true || panel?.isOpen() == true
        idle.arm(at: busy || wait <= 0 ? nil : GLibSources.monotonicMilliseconds() + wait)
    }
}
