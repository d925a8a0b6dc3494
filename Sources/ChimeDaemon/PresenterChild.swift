import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeGLib
import Glibc

/// Starts a program that draws (`chime-presenter` or `chime-banners`, installed beside chimed)
/// when there is a display, banners are on and something is to be drawn, and notices when it
/// ends: a display that went away ends the banners, never chimed; one that had nothing on screen
/// for `[popups] idle-exit` is started for the next banner.
public final class PresenterChild {
    /// Whether banners are shown, and if not, why: for `chimectl status`.
    enum Status: String {
        case on
        /// `[popups] enabled = false`.
        case off
        /// Neither WAYLAND_DISPLAY nor DISPLAY reached chimed.
        case noDisplay = "no-display"
        /// The presenter ended (its display went away) or could not start.
        case ended
        /// The display went away; banners come back when its socket is made again.
        case awaitingDisplay = "awaiting-display"
        /// The presenter crashed; it is started again after a pause (`crashBackoff`).
        case restarting
    }

    /// When chime-presenter cannot open the display (`ControlProtocol.displayUnavailable`), chimed
    /// starts it again a few times: a display still coming up, or one too busy to answer at once,
    /// still gets its banners.
    static let retryDelays: [UInt32] = [1_000, 2_000, 4_000]

    private var pid: pid_t?
    private let environment: [String: String]
    private let configPath: String
    /// The program and its own arguments, before `--config`.
    private var program: [String]
    /// What draws instead when the program says it cannot place banners on this display.
    private var fallback: [String]?
    private(set) var status = Status.off
    /// Whether banners are wanted (on in the config, and a display named), and how many times in
    /// a row the presenter could not open the display.
    private var wanted = false
    private var failedOpens = 0
    /// Waits, after the display went away, for its socket to come back.
    private var displayWatch: CreationWatch?
    /// Crashes in a row, and when the presenter last started (monotonic ms): one that keeps
    /// crashing is started again after 1 s, 2 s, 4 s... up to a minute, for as long as it takes;
    /// one that ran for a minute starts the count again.
    private var crashes = 0
    private var startedAt: Int64 = 0
    static let crashBackoff = (first: UInt32(1_000), longest: UInt32(60_000))

    /// Whether anything is to be drawn (a banner, or the panel open): then the presenter must run.
    var hasWork: () -> Bool = { false }
    /// The presenter ended for any reason but having nothing to draw: what it drew is gone.
    var ended: () -> Void = {}

    /// `program`: its name (found beside chimed) and arguments; `fallback`, what draws when it
    /// cannot draw what this desktop needs (`ControlProtocol.needsGTKBanners`).
    init(environment: [String: String], configPath: String, program: [String], fallback: [String]? = nil) {
        self.environment = environment
        self.configPath = configPath
        self.program = program
        self.fallback = fallback
    }

    /// Whether chime-banners draws the banners (cairo and pango, without GTK) and chime-presenter
    /// only the panel: unless CHIME_BANNERS=gtk asks for GTK's banners (ARCHITECTURE.md).
    static func drawnBanners(environment: [String: String]) -> Bool {
        environment["CHIME_BANNERS"] != "gtk" && hasDisplay(environment)
    }

    /// The program that draws now: chime-banners, or chime-presenter (GTK) after it handed over.
    var programName: String { program[0] }

    /// Whether chime-presenter runs now (with banners on, it may be waiting for the next one).
    var isRunning: Bool { pid != nil }

    /// Whether something asked to be drawn now would be (the presenter runs or can be started).
    var canDraw: Bool { wanted && status == .on }

    /// A banner is to be drawn: starts the presenter if it left when the screen was empty.
    func needed() {
        guard pid == nil, wanted, status == .on else { return }
        start()
    }

    /// Starts, stops or reloads the presenter to match `settings`.
    func follow(_ settings: PopupSettings) {
        if settings.enabled, !hasDisplay(environment), status != .noDisplay {
            status = .noDisplay
            // Often a compositor that started before it told the bus and systemd its display.
            Log.warning("no display (neither WAYLAND_DISPLAY nor DISPLAY is set for chimed), so no banners; "
                        + "if D-Bus or systemd started chimed, have your compositor run "
                        + "`dbus-update-activation-environment --systemd WAYLAND_DISPLAY DISPLAY` first, then restart chimed "
                        + "([popups] enabled = false says you want none)")
        }
        if !settings.enabled { status = .off }
        wanted = settings.enabled && hasDisplay(environment)
        failedOpens = 0
        displayWatch = nil
        switch (wanted, pid) {
        case (true, nil):
            status = .on
            if hasWork() { start() }
        case (true, let pid?): kill(pid, SIGHUP)
        case (false, let pid?):
            kill(pid, SIGTERM)
            self.pid = nil
            ended()
        case (false, nil): break
        }
    }

    func stop() {
        if pid != nil { ended() }
        status = .off
        displayWatch = nil
        if let pid { kill(pid, SIGTERM) }
        pid = nil
    }

    private func start() {
        // From chimed's own folder, reading the same config file.
        let executable = (executableFolder() ?? ".") + "/" + program[0]
        switch ChildProcess.spawn([executable] + program.dropFirst() + ["--config", configPath], exited: { [weak self] status in
            self?.exited(status)
        }) {
        case .success(let pid):
            self.pid = pid
            status = .on
            startedAt = GLibSources.monotonicMilliseconds()
        case .failure(let failure):
            status = .ended
            Log.warning("cannot start the banner presenter: \(failure.message); running without banners")
        }
    }

    private func exited(_ status: Int32) {
        pid = nil
        if status & 0x7f == 0, (status >> 8) & 0xff == ControlProtocol.needsGTKBanners, let fallback, self.status == .on {
            Log.info("\(fallback[0]) draws the banners from now on")
            program = fallback
            self.fallback = nil
            return start()
        }
        if status & 0x7f == 0, (status >> 8) & 0xff == ControlProtocol.idleExit, self.status == .on {
            Log.debug("the banner presenter left: nothing was on screen")
            // A banner presented as it was leaving is drawn by the next one.
            if hasWork() { start() }
            return
        }
        ended()
        // Stopped on purpose (banners turned off, chimed ending): nothing to say.
        guard self.status == .on else { return }
        self.status = .ended
        // WIFEXITED/WEXITSTATUS/WTERMSIG by hand: the C macros do not import.
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        if signal == 0, code == ControlProtocol.displayUnavailable, failedOpens < Self.retryDelays.count {
            let delay = Self.retryDelays[failedOpens]
            failedOpens += 1
            Log.warning("the banner presenter cannot open the display; trying again in \(delay / 1_000) s")
            start(after: delay)
        } else if signal == 0, code == ControlProtocol.displayUnavailable {
            Log.warning("the banner presenter cannot open the display; chimed runs on without banners" + awaitDisplay())
        } else if signal != 0, wanted {
            let delay = restartAfterCrash()
            Log.warning("the banner presenter crashed (signal \(signal)); starting it again in \(delay / 1_000) s")
        } else if code != 0 {
            Log.warning("the banner presenter ended (exit \(code), the display may be gone); chimed runs on without banners" + awaitDisplay())
        }
    }

    /// A presenter killed by a signal crashed (GTK exits with a status when its display goes):
    /// it is started again after a pause that doubles with each crash in a row. Returns the pause.
    private func restartAfterCrash() -> UInt32 {
        if GLibSources.monotonicMilliseconds() - startedAt > 60_000 { crashes = 0 }
        let delay = min(Self.crashBackoff.first << min(crashes, 6), Self.crashBackoff.longest)
        crashes += 1
        status = .restarting
        start(after: delay)
        return delay
    }

    /// Starts the presenter after `milliseconds`, if banners are still wanted and none runs.
    private func start(after milliseconds: UInt32) {
        GLibSources.timeout(milliseconds: milliseconds) { [weak self] in
            if let self, wanted, pid == nil { start() }
            return false
        }
    }

    /// A compositor or X server that ends is often started again (a crash, a new login, a
    /// restarted sway) while chimed, started by D-Bus or systemd, runs on: when the display's
    /// socket is made again, the banners come back. Says so for the log.
    private func awaitDisplay() -> String {
        guard wanted, let socket = DisplaySocket.path(environment: environment) else { return "" }
        displayWatch = CreationWatch(path: socket) { [weak self] in
            guard let self, wanted, pid == nil else { return }
            displayWatch = nil
            failedOpens = 0
            Log.info("\(socket) is back; starting the banner presenter again")
            start()
        }
        guard displayWatch != nil else { return "" }
        status = .awaitingDisplay
        return " until \(socket) is made again"
    }
}
