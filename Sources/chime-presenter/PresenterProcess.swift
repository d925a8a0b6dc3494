import ChimeBannerFeed
import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimePresenter
import Glibc

/// chime-presenter: the panel, and the banners drawn with GTK, in a process of their own that
/// chimed starts beside itself. It is a client of the control interface like any bar
/// (`BannerFeed`); a click is `InvokeWithToken`, `Dismiss` or `Reply`. Kept apart because GTK
/// ends the process when the display goes away; chimed must not end with it.
enum PresenterProcess {
    /// `panelOnly`: chime-banners draws the banners, this process the panel alone; `bannersOnly`:
    /// this process draws the banners chime-banners could not place, another the panel.
    static func run(configPath: String?, panelOnly: Bool, bannersOnly: Bool, environment: [String: String]) -> Int32 {
        guard let (config, settings, connection) = BannerFeed.start(program: "presenter", configPath: configPath, environment: environment) else {
            return 1
        }
        func call(_ method: String, _ arguments: [BusValue]) { BannerFeed.call(connection, method, arguments) }
        let display = environment["WAYLAND_DISPLAY"] ?? environment["DISPLAY"] ?? ""
        guard PopupPresenter.openDisplay() else {
            Log.warning("presenter: cannot open the display \(display)")
            return ControlProtocol.displayUnavailable
        }
        let style = ShippedStyle.apply(user: ConfigLoader.userStyleSheet(environment: environment), log: { Log.warning("presenter: " + $0) })
        var presenter: PopupPresenter?
        if !panelOnly {
            presenter = PopupPresenter(
                settings: settings.popups, environment: environment,
                callbacks: .init(invoke: { call("InvokeWithToken", [.uint32($0), .string($1), .string($2)]) },
                                 dismiss: { call("Dismiss", [.uint32($0)]) },
                                 reply: { call("Reply", [.uint32($0), .string($1)]) },
                                 hover: { call("SetPointerOver", [.uint32($0), .bool($1)]) },
                                 openedLink: { call("Read", [.array(elementSignature: "u", [.uint32($0)])]) },
                                 dismissAll: { call("DismissAll", []) },
                                 playAttachment: { call("PlayAttachment", [.uint32($0), .uint32(UInt32($1))]) },
                                 openCenter: { call("ShowCenter", [.string("open")]) }),
                log: { Log.warning("presenter: " + $0) })
            guard presenter != nil else { return 0 }
        }
        let panel = bannersOnly ? nil : PanelClient(connection: connection, settings: settings.panel)
        let feed = BannerFeed(connection: connection, board: presenter, panel: panel.map { panel in .init(
            heard: { panel.heard($0) }, open: { panel.open() }, close: { panel.close() },
            isOpen: { panel.panel.isOpen }, reload: { panel.panel.update($0.panel) }) },
            idleExit: settings.popups.idleExit)
        feed.reloaded = {
            style.load(ConfigLoader.userStyleSheet(environment: environment))
            return nil
        }
        return feed.run(config: config)
    }
}

extension PopupPresenter: BannerBoard {}
