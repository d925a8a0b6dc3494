import Foundation
import Glibc

/// A headless sway (wlroots, pixman renderer), for the Wayland tests and for the benchmark's
/// display phase. sway refuses to run as root, so as root it runs as nobody, in a runtime folder
/// of nobody's. Ready once its socket exists; stopped with the object.
public final class HeadlessSway: @unchecked Sendable {
    public let runtimeDirectory: URL
    public let socket = "wayland-1"
    public let process: Subprocess

    /// `xwayland`: with an X server for X11 clients (off unless asked: each would take a display
    /// number and a second to start).
    public init(in directory: URL, width: Int, height: Int, xwayland: Bool = false) throws {
        runtimeDirectory = directory.appendingPathComponent("wayland")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true)
        chmod(runtimeDirectory.path, 0o700)
        chmod(directory.path, 0o755)
        let config = directory.appendingPathComponent("sway.conf")
        try "output HEADLESS-1 resolution \(width)x\(height)\nxwayland \(xwayland ? "enable" : "disable")\n".write(to: config, atomically: true, encoding: .utf8)
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
            process = try Subprocess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                          "/usr/bin/sway", "-c", config.path], environment: env)
        } else {
            process = try Subprocess("/usr/bin/sway", ["-c", config.path], environment: env)
        }
        let path = runtimeDirectory.appendingPathComponent(socket).path
        let deadline = Date().addingTimeInterval(10)
        while access(path, F_OK) != 0 {
            guard Date() < deadline, process.isRunning else { throw TestFailure("sway did not start: \(process.stderr.suffix(400))") }
            process.pump(timeout: 0.05)
        }
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.wait(timeout: 5)
    }

    /// Asks sway over its IPC socket (as `create_output`, `-t get_seats`); returns what it says.
    @discardableResult
    public func swaymsg(_ arguments: [String]) throws -> String {
        // sway makes its IPC socket a moment after its Wayland one, which says it is ready.
        var socket: String?
        let deadline = Date().addingTimeInterval(10)
        repeat {
            socket = try FileManager.default.contentsOfDirectory(atPath: runtimeDirectory.path).first { $0.hasPrefix("sway-ipc.") }
            if socket == nil { process.pump(timeout: 0.05) }
        } while socket == nil && Date() < deadline && process.isRunning
        guard let socket else { throw TestFailure("sway has no IPC socket") }
        var env = ProcessInfo.processInfo.environment
        env["SWAYSOCK"] = runtimeDirectory.appendingPathComponent(socket).path
        let swaymsg = try Subprocess("/usr/bin/swaymsg", arguments, environment: env)
        guard swaymsg.wait(timeout: 10) == 0 else { throw TestFailure("swaymsg \(arguments): \(swaymsg.stderr)") }
        return swaymsg.stdout
    }

    /// The display name of its Xwayland (started with `xwayland: true`), once that is up and lets
    /// this user in (it lets in only sway's user, nobody when the tests run as root).
    public func xwaylandDisplay() throws -> String {
        let file = runtimeDirectory.appendingPathComponent("xwayland-display")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            // sway runs it with its DISPLAY once Xwayland is ready, else with none.
            _ = try swaymsg(["exec", "[ -n \"$DISPLAY\" ] && xhost +si:localuser:\(String(cString: getpwuid(getuid()).pointee.pw_name)) "
                                + "&& echo $DISPLAY > \(file.path)"])
            let stepDeadline = Date().addingTimeInterval(1)
            while Date() < stepDeadline {
                if let name = try? String(contentsOf: file, encoding: .utf8), name.hasSuffix("\n") {
                    return name.trimmingCharacters(in: .whitespacesAndNewlines)
                }
                process.pump(timeout: 0.05)
            }
        }
        throw TestFailure("sway's Xwayland did not start: \(process.stderr.suffix(400))")
    }

    /// What a client needs to reach it.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory.path]
    }
}
