import ChimeCore
import ChimeGLib
import Glibc

/// Starts `chime-presenter` (installed beside chimed) when there is a display and banners are on,
/// and notices when it ends: a display that went away ends the banners, never chimed.
final class PresenterChild {
    /// Whether banners are shown, and if not, why: for `chimectl status`.
    enum Status: String {
        case on
        /// `[popups] enabled = false`.
        case off
        /// Neither WAYLAND_DISPLAY nor DISPLAY reached chimed.
        case noDisplay = "no-display"
        /// The presenter ended (its display went away) or could not start.
        case ended
    }

    private var pid: pid_t?
    private let environment: [String: String]
    private let configPath: String
    private(set) var status = Status.off

    init(environment: [String: String], configPath: String) {
        self.environment = environment
        self.configPath = configPath
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
        switch (settings.enabled && hasDisplay(environment), pid) {
        case (true, nil): start()
        case (true, let pid?): kill(pid, SIGHUP)
        case (false, let pid?):
            kill(pid, SIGTERM)
            self.pid = nil
        case (false, nil): break
        }
    }

    func stop() {
        status = .off
        if let pid { kill(pid, SIGTERM) }
        pid = nil
    }

    private func start() {
        // From chimed's own folder, reading the same config file.
        switch ChildProcess.spawn([Self.executable, "--config", configPath], exited: { [weak self] status in
            self?.exited(status)
        }) {
        case .success(let pid):
            self.pid = pid
            status = .on
        case .failure(let failure):
            status = .ended
            Log.warning("cannot start the banner presenter: \(failure.message); running without banners")
        }
    }

    /// `chime-presenter` in the folder chimed runs from.
    private static var executable: String { (executableFolder() ?? ".") + "/chime-presenter" }

    private func exited(_ status: Int32) {
        pid = nil
        // Stopped on purpose (banners turned off, chimed ending): nothing to say.
        guard self.status == .on else { return }
        self.status = .ended
        // WIFEXITED/WEXITSTATUS/WTERMSIG by hand: the C macros do not import.
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        if signal != 0 {
            Log.warning("the banner presenter ended (signal \(signal)); chimed runs on without banners")
        } else if code != 0 {
            Log.warning("the banner presenter ended (exit \(code), the display may be gone); chimed runs on without banners")
        }
    }
}
