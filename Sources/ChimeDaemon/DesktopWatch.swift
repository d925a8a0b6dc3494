import ChimeCore
import ChimeDesktop
import ChimeGLib

/// Follows what the person is doing, for the decision (chimed(1), "What you are doing"): on
/// Wayland the compositor's wlr-foreign-toplevel-management, on X11 the window manager's EWMH.
/// Under Wayland, X11 is not asked: Xwayland knows only its own windows. Says in the log what it
/// follows, or why nothing; `chimectl status` says the same. A display that goes away is
/// followed again when its socket is made again.
final class DesktopWatch {
    private(set) var context = DesktopContext()
    /// Why nothing is followed, while nothing is.
    private(set) var unavailable: String? = "not started"
    private var source: DesktopSource?
    private var displayWatch: CreationWatch?
    /// Connections in a row that failed: a compositor makes its socket a moment before it
    /// answers on it, so a failed connection is tried again a few times (`retryDelays`).
    private var failedConnects = 0
    static let retryDelays: [UInt32] = [250, 500, 1_000, 2_000, 4_000]
    private let environment: [String: String]
    private let identities: SenderIdentities
    private let changed: (DesktopContext) -> Void

    init(environment: [String: String], identities: SenderIdentities, changed: @escaping (DesktopContext) -> Void) {
        self.environment = environment
        self.identities = identities
        self.changed = changed
    }

    func start() {
        displayWatch = nil
        if let name = environment["WAYLAND_DISPLAY"], !name.isEmpty {
            source = WaylandToplevels(display: name, changed: { [weak self] window in self?.focused(window) },
                                      ended: { [weak self] ending in self?.ended(ending) })
        } else if let name = environment["DISPLAY"], !name.isEmpty {
            source = X11ActiveWindow(display: name, changed: { [weak self] window, pid in
                guard let self else { return }
                var window = window
                window?.identity = pid.flatMap(identities.describe)
                focused(window)
            }, ended: { [weak self] ending in self?.ended(ending) })
        } else {
            stop(because: "neither WAYLAND_DISPLAY nor DISPLAY is set for chimed")
            return
        }
        guard let source else {
            stop(because: "cannot connect to the display")
            awaitDisplay()
            if failedConnects < Self.retryDelays.count {
                GLibSources.timeout(milliseconds: Self.retryDelays[failedConnects]) { [weak self] in
                    if let self, self.source == nil { start() }
                    return false
                }
                failedConnects += 1
            }
            return
        }
        failedConnects = 0
        unavailable = nil
        context = DesktopContext(source: source.source)
        Log.info("following the focused window and fullscreen through \(source.source.rawValue)")
        changed(context)
    }

    private func focused(_ window: DesktopContext.Window?) {
        guard let source else { return }
        context = DesktopContext(source: source.source, focused: window)
        changed(context)
    }

    private func ended(_ ending: DesktopSourceEnding) {
        switch ending {
        case .unsupported(let what):
            stop(because: what)
        case .disconnected:
            stop(because: "the display went away")
            awaitDisplay()
        }
    }

    /// Nothing is followed: the rules that need the desktop's state do not apply.
    private func stop(because reason: String) {
        source = nil
        // Said once for each reason, not at each try to connect again.
        if unavailable != reason {
            Log.info("not following the focused window or fullscreen: \(reason); the foreground and fullscreen rules do not apply")
        }
        unavailable = reason
        if context != DesktopContext() {
            context = DesktopContext()
            changed(context)
        }
    }

    private func awaitDisplay() {
        guard let socket = DisplaySocket.path(environment: environment) else { return }
        displayWatch = CreationWatch(path: socket) { [weak self] in self?.start() }
    }
}
