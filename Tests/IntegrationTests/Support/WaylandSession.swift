import ChimeTestSupport
import Foundation
import Glibc

/// A headless sway (wlroots) for the popup tests on Wayland, with grim for screenshots.
/// sway refuses to run as root, so as root it runs as nobody in a runtime folder of nobody's.
final class WaylandSession: @unchecked Sendable {
    let runtimeDirectory: URL
    let socket = "wayland-1"
    private let compositor: Subprocess
    let width = 1280, height = 800

    init(in directory: URL) throws {
        runtimeDirectory = directory.appendingPathComponent("wayland")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true)
        chmod(runtimeDirectory.path, 0o700)
        chmod(directory.path, 0o755)
        let config = directory.appendingPathComponent("sway.conf")
        try "output HEADLESS-1 resolution \(width)x\(height)\n".write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WLR_BACKENDS"] = "headless"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env["WLR_RENDERER"] = "pixman"
        env["HOME"] = directory.path
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        if getuid() == 0 {
            chown(runtimeDirectory.path, 65534, 65534)
            compositor = try Subprocess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                             "/usr/bin/sway", "-c", config.path], environment: env)
        } else {
            compositor = try Subprocess("/usr/bin/sway", ["-c", config.path], environment: env)
        }
        let path = runtimeDirectory.appendingPathComponent(socket).path
        let deadline = Date().addingTimeInterval(10)
        while access(path, F_OK) != 0 {
            guard Date() < deadline, compositor.isRunning else { throw TestFailure("sway did not start: \(compositor.stderr.suffix(400))") }
            compositor.pump(timeout: 0.05)
        }
    }

    deinit {
        compositor.signal(SIGTERM)
        _ = compositor.wait(timeout: 5)
    }

    var environment: [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory.path]
    }

    /// A left click at x, y (or `button`, a Linux input code), by a virtual pointer that comes
    /// for the click and goes after it: the headless compositor has no pointer of its own.
    func click(x: Int, y: Int, button: Int = 272) throws {
        let pointer = try input(["pointer", "\(x)", "\(y)", "\(width)", "\(height)", "\(button)"])
        guard pointer.wait(timeout: 10) == 0 else { throw TestFailure("wayland-input failed: \(pointer.stderr)") }
    }

    /// The pointer held at x, y until the returned process is stopped (SIGTERM); it is there once
    /// this returns.
    func hover(x: Int, y: Int) throws -> Subprocess {
        let pointer = try input(["pointer", "\(x)", "\(y)", "\(width)", "\(height)", "0"])
        guard pointer.line(timeout: 10, matching: { $0 == "ready" }) != nil else {
            throw TestFailure("wayland-input did not take its place: \(pointer.stderr)")
        }
        return pointer
    }

    /// A virtual keyboard that will type `texts` (lowercase letters and spaces), one and Return
    /// at each `type()`, into whatever has the keyboard focus. Made before the typing: clients
    /// take a new keyboard in their own time, and keys sent before are lost.
    final class Keyboard {
        private let process: Subprocess
        private var typed = 0

        fileprivate init(_ process: Subprocess) throws {
            self.process = process
            guard process.line(timeout: 10, matching: { $0 == "ready" }) != nil else {
                throw TestFailure("wayland-input's keyboard did not come: \(process.stderr)")
            }
        }

        func type() throws {
            typed += 1
            process.signal(SIGUSR1)
            guard process.line(timeout: 10, matching: { [typed] in $0 == "typed \(typed)" }) != nil else {
                throw TestFailure("wayland-input did not type: \(process.stderr)")
            }
        }
    }

    func keyboard(typing texts: [String]) throws -> Keyboard {
        try Keyboard(input(["keyboard"] + texts))
    }

    private func input(_ arguments: [String]) throws -> Subprocess {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        return try Subprocess(TestBus.binaries.appendingPathComponent("wayland-input").path, arguments, environment: env)
    }

    /// Waits (up to 10 s) until the region of the screen looks other than the same area in the
    /// bottom-left corner, where no banner goes: something is drawn there. Returns the two
    /// brightnesses of the last screenshot, taken to `shot`.
    func waitUntilDrawn(x: Int, y: Int, width: Int, height: Int, shot: String) throws -> (empty: Double, drawn: Double) {
        var empty = 0.0, drawn = 0.0
        let deadline = Date().addingTimeInterval(10)
        repeat {
            try screenshot(to: shot)
            empty = try XDisplay.brightness(x: 20, y: self.height - height - 20, width: width, height: height, in: shot)
            drawn = try XDisplay.brightness(x: x, y: y, width: width, height: height, in: shot)
        } while abs(drawn - empty) < 0.02 && Date() < deadline
        return (empty, drawn)
    }

    func screenshot(to path: String) throws {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        let grim = try Subprocess("/usr/bin/grim", [path], environment: env)
        guard grim.wait(timeout: 20) == 0 else { throw TestFailure("grim failed: \(grim.stderr)") }
    }
}
