import ChimeCore
import ChimeGLib
import Glibc

/// Starts `chime-presenter` (installed beside chimed) when there is a display and banners are on,
/// and notices when it ends: a display that went away ends the banners, never chimed.
final class PresenterChild {
    private var pid: pid_t?
    private let environment: [String: String]
    private let configPath: String

    init(environment: [String: String], configPath: String) {
        self.environment = environment
        self.configPath = configPath
    }

    /// Starts, stops or reloads the presenter to match `settings`.
    func follow(_ settings: PopupSettings) {
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
        case .failure(let failure):
            Log.warning("cannot start the banner presenter: \(failure.message); running without banners")
        }
    }

    /// `chime-presenter` in the folder chimed runs from.
    private static var executable: String { (executableFolder() ?? ".") + "/chime-presenter" }

    private func exited(_ status: Int32) {
        pid = nil
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
