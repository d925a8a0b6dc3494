import ChimeBannerFeed
import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimePresenter
import Glibc

/// chime-presenter --reply/--menu/--more: the reply field or the menu of actions over one of
/// chime-banners' banners (`Interaction`), started by chime-banners for a click on it. It reads the
/// notification from chimed (`Show`), calls `Reply` or `InvokeWithToken` as the banner would, and
/// ends once that is done, on Escape, on a click elsewhere, or when the notification goes.
enum InteractionProcess {
    static func run(configPath: String?, interaction: Interaction, environment: [String: String]) -> Int32 {
        guard let (_, settings, connection) = BannerFeed.start(program: "presenter", configPath: configPath, environment: environment) else {
            return 1
        }
        guard PopupPresenter.openDisplay() else { return ControlProtocol.displayUnavailable }
        _ = ShippedStyle.apply(user: ConfigLoader.userStyleSheet(environment: environment), log: { Log.warning("presenter: " + $0) })
        let name = ControlProtocol.name, path = ControlProtocol.path
        guard let shown = try? connection.call(.methodCall(destination: name, path: path, interface: name, method: "Show",
                                                           arguments: [.uint32(interaction.id)])),
              let record = shown.first?.vardictEntries else { return 0 }
        func call(_ method: String, _ arguments: [BusValue]) { BannerFeed.call(connection, method, arguments) }
        let loop = MainLoop()
        let callbacks = PopupPresenter.Callbacks(invoke: { call("InvokeWithToken", [.uint32($0), .string($1), .string($2)]) },
                                                 dismiss: { call("Dismiss", [.uint32($0)]) },
                                                 reply: { call("Reply", [.uint32($0), .string($1)]) },
                                                 hover: { _, _ in })
        let content = BannerContent(id: interaction.id, record: record)
        guard let window = InteractionWindow(interaction, content: content, settings: settings.popups, callbacks: callbacks,
                                             done: { loop.quit() }) else { return 0 }
        do {
            try connection.addMatch("type='signal',sender='\(name)',interface='\(name)',path='\(path)',member='Withdrawn'")
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'")
        } catch {
            return 1
        }
        connection.attachToMainLoop { message in
            switch (message.interface, message.member) {
            case (name, "Withdrawn"):
                if message.arguments.first == .uint32(interaction.id) { loop.quit() }
            case ("org.freedesktop.DBus", "NameOwnerChanged"), ("org.freedesktop.DBus.Local", "Disconnected"):
                loop.quit()
            default:
                return false
            }
            return true
        }
        GLibSources.unixSignal(SIGTERM) {
            loop.quit()
            return true
        }
        loop.run()
        // What it sent goes before it ends.
        withExtendedLifetime(window) { connection.flush() }
        return 0
    }
}
