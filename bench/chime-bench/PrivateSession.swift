import ChimeTestSupport
import Foundation
import Glibc

/// A session of its own for one server under test: a folder (its HOME, config and state), a
/// private dbus-daemon, and the environment a server started there gets: that bus, no system bus,
/// no display (a phase that wants one adds it), and the benchmark's PulseAudio or none.
final class PrivateSession {
    let directory: URL
    let busAddress: String
    let bus: Subprocess
    var environment: [String: String]

    init(name: String, pulse: PulseServer?) throws {
        // A short folder name: sway's IPC socket goes in it, and a socket's path has at most 107 bytes.
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bench-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        busAddress = "unix:path=\(directory.path)/bus.sock"
        bus = try Subprocess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1", "--address=\(busAddress)"],
                             environment: ProcessInfo.processInfo.environment)
        guard bus.line(timeout: 10, matching: { $0.hasPrefix("unix:") }) != nil else { throw TestFailure("dbus-daemon did not start") }
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        env["HOME"] = directory.path
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        env["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(directory.path)/no-system-bus"
        env["PULSE_SERVER"] = pulse?.address ?? "unix:\(directory.path)/no-pulse"
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "DISPLAY")
        environment = env
    }

    /// Ends the bus and removes the folder.
    func stop() {
        bus.signal(SIGKILL)
        _ = bus.wait(timeout: 5)
        try? FileManager.default.removeItem(at: directory)
    }
}
