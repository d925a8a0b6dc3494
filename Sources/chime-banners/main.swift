import ChimeBannerFeed
import ChimeBanners
import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import Glibc

// chime-banners [--config FILE]: chimed's banners drawn with cairo and pango on X11 or a
// wlroots compositor, without GTK, started by chimed beside itself (chime-presenter draws the panel). A client of the
// control interface (`BannerFeed`): a click is `InvokeWithToken` or `Dismiss`.
var arguments = CommandLine.arguments.dropFirst()
var configPath: String?
while let argument = arguments.popFirst() {
    if argument == "--config", let path = arguments.popFirst() {
        configPath = path
    } else {
        print("usage: chime-banners [--config FILE]   (chimed starts it; it draws chimed's banners)")
        exit(2)
    }
}

/// chime-presenter, started over a banner for its reply field or menu (GTK: input methods, the
/// keyboard, screen readers); one at a time, and it ends with this process.
final class InteractionHelper {
    private let configPath: String
    private var running: pid_t?

    init(configPath: String) { self.configPath = configPath }

    /// `closed`: called once it has ended (or could not start).
    func open(_ interaction: Interaction, closed: @escaping () -> Void) {
        if let running { kill(running, SIGTERM) }
        let program = (executableFolder() ?? ".") + "/chime-presenter"
        var started: pid_t?
        switch ChildProcess.spawn([program, "--config", configPath] + interaction.arguments, exited: { [weak self] _ in
            if let self, running == started { running = nil }
            closed()
        }) {
        case .success(let pid):
            started = pid
            running = pid
        case .failure(let failure):
            Log.warning("banners: cannot start \(program) for the reply field or menu: \(failure.message)")
            closed()
        }
    }
}

func run(configPath: String?, environment: [String: String]) -> Int32 {
    guard let (config, settings, connection) = BannerFeed.start(program: "banners", configPath: configPath, environment: environment) else {
        return 1
    }
    guard settings.popups.enabled else { return 0 }
    func call(_ method: String, _ arguments: [BusValue]) { BannerFeed.call(connection, method, arguments) }
    let helper = InteractionHelper(configPath: config.path)
    let callbacks = LightBanners.Callbacks(invoke: { call("InvokeWithToken", [.uint32($0), .string($1), .string($2)]) },
                                           dismiss: { call("Dismiss", [.uint32($0)]) },
                                           hover: { call("SetPointerOver", [.uint32($0), .bool($1)]) },
                                           dismissAll: { call("DismissAll", []) },
                                           opened: { call("Read", [.array(elementSignature: "u", [.uint32($0)])]) },
                                           playAttachment: { call("PlayAttachment", [.uint32($0), .uint32(UInt32($1))]) },
                                           interact: { helper.open($0, closed: $1) },
                                           openCenter: { call("ShowCenter", [.string("open")]) })
    if let reason = GTKBannersNeeded.reason(environment: environment, bus: connection) {
        Log.info("banners: \(reason): chime-presenter draws them")
        return ControlProtocol.needsGTKBanners
    }
    let made: LightBanners?
    do {
        made = try LightBanners(settings: settings.popups, environment: environment, callbacks: callbacks,
                                log: { Log.warning("banners: " + $0) },
                                ended: { Log.flush(); exit(1) })
    } catch {
        Log.info("banners: this compositor has no wlr-layer-shell to place them: chime-presenter draws them")
        return ControlProtocol.needsGTKBanners
    }
    guard let banners = made else {
        Log.warning("banners: cannot open the display \(environment["WAYLAND_DISPLAY"] ?? environment["DISPLAY"] ?? "")")
        return ControlProtocol.displayUnavailable
    }
    let feed = BannerFeed(connection: connection, board: banners, panel: nil, idleExit: settings.popups.idleExit)
    // A style.css written since it started: only GTK reads it.
    feed.reloaded = {
        guard let sheet = ConfigLoader.userStyleSheet(environment: environment) else { return nil }
        Log.info("banners: \(sheet) styles them: chime-presenter draws them")
        return ControlProtocol.needsGTKBanners
    }
    return feed.run(config: config)
}

extension LightBanners: BannerBoard {}

Log.takeGLibMessages()
Translation.install()
let status = run(configPath: configPath, environment: processEnvironment())
Log.flush()
exit(status)
