import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimePresenter
import CShims
import Glibc

/// chime-presenter: the banners, in a process of their own that chimed starts beside
/// itself. It is a client of the control interface like any bar: it shows what `Presented`
/// says and hides what `Withdrawn` says, and a click is `InvokeWithToken`, `Dismiss` or `Reply`.
/// Kept apart because GTK ends the process when the display goes away; chimed must not end
/// with it.
enum PresenterProcess {
    static let controlName = ControlProtocol.name
    static let controlPath = ControlProtocol.path

    static func run(configPath: String?, environment: [String: String]) -> Int32 {
        // Ends with chimed, whatever way chimed ends.
        chime_end_with_parent()
        let config = ConfigLoader(path: configPath ?? ConfigLoader.defaultPath(environment: environment))
        let settings = (try? config.load(base: .init()).get()) ?? ChimeSettings()
        let connection: BusConnection
        do {
            connection = try BusConnection()
        } catch {
            Log.info("presenter: cannot reach the session bus: \(error.message)")
            return 1
        }
        func call(_ method: String, _ arguments: [BusValue]) {
            connection.send(.methodCall(destination: controlName, path: controlPath, interface: controlName,
                                        method: method, arguments: arguments))
        }
        let display = environment["WAYLAND_DISPLAY"] ?? environment["DISPLAY"] ?? ""
        guard PopupPresenter.openDisplay() else {
            Log.warning("presenter: cannot open the display \(display)")
            return ControlProtocol.displayUnavailable
        }
        let css = ConfigLoader.folder(environment: environment) + "/style.css"
        guard let presenter = PopupPresenter(
            settings: settings.popups, css: access(css, R_OK) == 0 ? css : nil, environment: environment,
            callbacks: .init(invoke: { call("InvokeWithToken", [.uint32($0), .string($1), .string($2)]) },
                             dismiss: { call("Dismiss", [.uint32($0)]) },
                             reply: { call("Reply", [.uint32($0), .string($1)]) },
                             hover: { call("SetPointerOver", [.uint32($0), .bool($1)]) },
                             openedLink: { call("Read", [.array(elementSignature: "u", [.uint32($0)])]) },
                             dismissAll: { call("DismissAll", []) },
                             playAttachment: { call("PlayAttachment", [.uint32($0), .uint32(UInt32($1))]) }),
            log: { Log.warning("presenter: " + $0) })
        else { return 0 }

        let panel = PanelClient(connection: connection, settings: settings.panel)
        let loop = MainLoop()
        var exitStatus: Int32 = 0
        var idleExit = settings.popups.idleExit
        // With nothing on screen for `idle-exit`, it exits: chimed starts it for the next banner.
        let idle = DeadlineTimer {
            exitStatus = ControlProtocol.idleExit
            loop.quit()
        }
        let followScreen = {
            let wait = idleExit.milliseconds
            let busy = presenter.isShowing || panel.panel.isOpen
            idle.arm(at: busy || wait <= 0 ? nil : GLibSources.monotonicMilliseconds() + wait)
        }
        do {
            // Only what it draws: the center's Stored signals, badges and Focus changes wake it
            // only while the panel is open (PanelClient).
            for member in ["Presented", "Updated", "Withdrawn", "CenterShown"] {
                try connection.addMatch("type='signal',sender='\(controlName)',interface='\(controlName)',path='\(controlPath)',member='\(member)'")
            }
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(controlName)'")
        } catch {
            Log.info("presenter: \(error.message)")
            return 1
        }
        connection.attachToMainLoop { message in
            switch (message.interface, message.member) {
            case (controlName, "Presented"):
                let arguments = message.arguments
                if arguments.count == 2, case .uint32(let id) = arguments[0] {
                    presenter.show(BannerContent(id: id, record: arguments[1].vardictEntries ?? [:]))
                }
                panel.heard(message.member)
            case (controlName, "Updated"):
                let arguments = message.arguments
                if arguments.count == 3, case .uint32(let id) = arguments[0], case .uint32(let previous) = arguments[1] {
                    presenter.show(BannerContent(id: id, record: arguments[2].vardictEntries ?? [:]), replacing: previous)
                }
                panel.heard(message.member)
            case (controlName, "Withdrawn"):
                if case .uint32(let id)? = message.arguments.first { presenter.hide(id) }
                panel.heard(message.member)
            case (controlName, "CenterShown"):
                if case .bool(let open)? = message.arguments.first {
                    if open { panel.open() } else { panel.close() }
                    presenter.suspended = panel.panel.isOpen
                }
            case (controlName, _), ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
                panel.heard(message.member)
            case ("org.freedesktop.DBus", "NameOwnerChanged"), ("org.freedesktop.DBus.Local", "Disconnected"):
                loop.quit()  // chimed went away
            default:
                return false
            }
            followScreen()
            return true
        }
        // What is on screen already: banners presented before this process started, page by page.
        var after = ""
        repeat {
            let options: [(String, BusValue)] = after.isEmpty ? [] : [("after", .string(after))]
            guard let page = try? connection.call(.methodCall(destination: controlName, path: controlPath, interface: controlName,
                                                              method: "List", arguments: [.vardict(options)])),
                  page.count == 2 else { break }
            for record in page[0].records where record["state"]?.string == "presented" {
                if let id = record["id"]?.integer { presenter.show(BannerContent(id: UInt32(id), record: record)) }
            }
            after = page[1].string ?? ""
        } while !after.isEmpty
        // The panel, if it was opened before this process started (it is started for it).
        if (try? connection.call(.methodCall(destination: controlName, path: controlPath, interface: controlName,
                                             method: "GetStatus", arguments: [])))?.first?.vardictEntries?["center-open"]?.bool == true {
            panel.open()
            presenter.suspended = true
        }
        followScreen()
        GLibSources.unixSignal(SIGHUP) {
            if let reloaded = try? config.load(base: .init()).get() {
                presenter.update(reloaded.popups)
                panel.panel.update(reloaded.panel)
                idleExit = reloaded.popups.idleExit
                followScreen()
            }
            return true
        }
        GLibSources.unixSignal(SIGTERM) {
            loop.quit()
            return true
        }
        loop.run()
        return exitStatus
    }
}
