import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Which program draws the banners: chime-banners with cairo and pango alone (the default), or
/// chime-presenter with GTK (CHIME_BANNERS=gtk). Tests of what both must do run with each.
enum Drawing: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case gtk, light

    var testDescription: String { rawValue }
    /// The program's name, as pgrep finds it.
    var program: String { self == .gtk ? "chime-presenter" : "chime-banners" }
}

/// A private dbus-daemon with chimed on it, torn down when the test ends.
final class TestBus: @unchecked Sendable {
    let directory: URL
    let address: String
    private let bus: Subprocess
    /// A second bus standing in for the system bus, where a fake logind can live.
    private(set) var systemBus: Subprocess?
    var systemAddress: String { "unix:path=\(directory.path)/system.sock" }
    private(set) var daemon: Subprocess?

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binaries: URL = {
        if let dir = ProcessInfo.processInfo.environment["CHIME_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        return packageRoot.appendingPathComponent(".build/debug")
    }()
    static let chimed = binaries.appendingPathComponent("chimed").path
    static let chimectl = binaries.appendingPathComponent("chimectl").path

    /// Starts a bus; with `daemon`, also chimed, and waits until it owns its names.
    /// With `activation`, the bus instead starts chimed itself from dbus/'s activation files.
    /// With `config`, that text is chime.conf.
    /// With `pulse`, chimed plays its sounds there (and logs each one); without, it finds no sound server.
    let pulse: PulseServer?
    /// With `display`, chimed (and every child) draws on this Xvfb.
    let display: XDisplay?
    /// With `wayland`, a headless sway in the test's folder, and chimed draws there.
    private(set) var wayland: WaylandSession?

    /// Ends the headless sway, as a compositor that quits or crashes does, and starts another
    /// in the same runtime folder, where it makes the same socket.
    func restartWayland() throws {
        wayland = nil
        wayland = try WaylandSession(in: directory)
    }

    /// `threadCooldown`: most tests send several notifications from one app and look at each
    /// banner and sound, so chimed runs with `--thread-cooldown 0` unless a test of one banner a
    /// burst asks for the default.
    /// `drawing`: which program draws the banners on X11.
    init(daemon startDaemon: Bool = true, arguments: [String] = [], activation: Bool = false, config: String? = nil,
         systemBus: Bool = false, pulse: PulseServer? = nil, display: XDisplay? = nil, wayland: Bool = false,
         threadCooldown: Bool = false, drawing: Drawing = .light) throws {
        self.pulse = pulse
        self.display = display
        self.drawing = drawing
        self.threadCooldown = threadCooldown
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let config { try Self.write(config, to: Self.configPath(in: directory)) }
        address = "unix:path=\(directory.path)/bus.sock"
        var busArguments = ["--session", "--nofork", "--print-address=1", "--address=\(address)"]
        if activation {
            busArguments[0] = "--config-file=\(try Self.activationConfig(in: directory, address: address))"
        }
        // In the foreground, so it is our child: it is ready once it prints its address.
        // With the test's own environment, so a chimed the bus activates keeps its state in the test's folder.
        bus = try Subprocess("/usr/bin/dbus-daemon", busArguments, environment: Self.privateEnvironment(directory: directory, address: address))
        guard bus.line(timeout: 10, matching: { $0.hasPrefix("unix:") }) != nil else {
            throw TestFailure("dbus-daemon did not start: \(bus.stderr)")
        }
        if systemBus {
            let system = try Subprocess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1", "--address=\(systemAddress)"],
                                        environment: ProcessInfo.processInfo.environment)
            guard system.line(timeout: 10, matching: { $0.hasPrefix("unix:") }) != nil else {
                throw TestFailure("the stand-in system bus did not start: \(system.stderr)")
            }
            self.systemBus = system
        }
        if wayland { self.wayland = try WaylandSession(in: directory) }
        if startDaemon { daemon = try startChimed(arguments) }
        // Banners that never come fail a test far from their cause: say what chimed (and its
        // presenter, which shares its stderr) said.
        display?.whenWaitFails = { [weak self] in "chimed said:\n" + (self?.daemonLog ?? "(the test's bus is gone)") }
    }

    private let threadCooldown: Bool
    let drawing: Drawing
    /// Set before chimed starts: more of its environment (a display of the test's own).
    var extraEnvironment: [String: String] = [:]

    /// Kills the dbus-daemon outright, as a crashed session bus goes.
    func killBus() {
        bus.signal(SIGKILL)
        _ = bus.wait(timeout: 5)
    }

    /// What chimed has written to stderr so far.
    var daemonLog: String {
        guard let daemon else { return "(no chimed running)" }
        daemon.drain()
        return daemon.stderr
    }

    /// Whether chimed writes a line holding `text` within `timeout`: its log is written on a
    /// thread of its own, so a line can come just after the reply or signal it goes with.
    func logSays(_ text: String, timeout: Double = 10) -> Bool {
        daemon?.line(onStderr: true, timeout: timeout) { $0.contains(text) } != nil
    }

    deinit {
        if let daemon, daemon.isRunning {
            daemon.signal(SIGTERM)
            _ = daemon.wait(timeout: 5)
        }
        // Throwaway buses are killed outright.
        for process in [bus, systemBus].compactMap({ $0 }) {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 5)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A session bus configuration whose only service directory holds dbus/'s activation
    /// files, with @BINDIR@ set to the build folder as `make install` sets it to PREFIX/bin.
    static func activationConfig(in directory: URL, address: String) throws -> String {
        let services = directory.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        for name in ["org.freedesktop.Notifications.service", "dev.chime.Chime1.service", "org.freedesktop.impl.portal.desktop.chime.service"] {
            let text = try String(contentsOf: packageRoot.appendingPathComponent("dbus/" + name), encoding: .utf8)
            try text.replacingOccurrences(of: "@BINDIR@", with: binaries.path)
                .write(to: services.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let config = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <servicedir>\(services.path)</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        return config.path
    }

    var environment: [String: String] {
        var env = Self.privateEnvironment(directory: directory, address: address)
        env["PULSE_SERVER"] = pulse?.address ?? "unix:\(directory.path)/no-pulse"
        if let display { env["DISPLAY"] = display.name }
        if drawing == .gtk { env["CHIME_BANNERS"] = "gtk" }
        env.merge(extraEnvironment) { _, new in new }
        if let wayland { env.merge(wayland.environment) { _, new in new } }
        return env
    }

    /// Everything a child needs to stay inside this test: its bus, its folders, no display.
    static func privateEnvironment(directory: URL, address: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        // Never the machine's own system bus: the stand-in, or a socket that is not there.
        env["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(directory.path)/system.sock"
        env["PULSE_SERVER"] = "unix:\(directory.path)/no-pulse"
        env["CHIME_DEBUG"] = "1"
        // GTK would otherwise start an accessibility bus that outlives the test.
        env["NO_AT_BRIDGE"] = "1"
        env["HOME"] = directory.path
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        env["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        // Desktop files too come from the test's folder (and the system's), never the user's.
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        // English, whatever the machine's language: a test of another says so (LanguageTests).
        env["LANG"] = "C.UTF-8"
        for key in ["LANGUAGE", "LC_ALL", "LC_MESSAGES"] { env.removeValue(forKey: key) }
        return env
    }

    static func configPath(in directory: URL) -> URL { directory.appendingPathComponent("config/chime/chime.conf") }
    var configPath: URL { Self.configPath(in: directory) }

    /// Writes chime.conf, or another file of chimed's config folder (style.css).
    func writeConfig(_ text: String, file: String = "chime.conf") throws {
        try Self.write(text, to: configPath.deletingLastPathComponent().appendingPathComponent(file))
    }

    private static func write(_ text: String, to path: URL) throws {
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: path, atomically: true, encoding: .utf8)
    }

    /// Stops chimed (SIGTERM) and starts a new one (`executable`) on the same bus, config and state.
    func restartChimed(executable: String = TestBus.chimed) throws {
        if let daemon {
            daemon.signal(SIGTERM)
            guard daemon.wait(timeout: 10) == 0 else { throw TestFailure("chimed did not stop") }
        }
        daemon = try startChimed(executable: executable)
    }

    func startDaemon(_ arguments: [String] = []) throws { daemon = try startChimed(arguments) }

    /// Starts a chimed and waits for it to say it serves (or to exit).
    func startChimed(_ arguments: [String] = [], executable: String = TestBus.chimed,
                     waitUntilServing: Bool = true) throws -> Subprocess {
        let arguments = threadCooldown || executable != TestBus.chimed ? arguments : arguments + ["--thread-cooldown", "0"]
        let process = try Subprocess(executable, arguments, environment: environment)
        if waitUntilServing {
            guard process.line(onStderr: true, timeout: 10, matching: { $0.contains("serving") }) != nil else {
                throw TestFailure("chimed did not start: \(process.stderr)")
            }
        }
        return process
    }

    /// Runs a command to completion (bounded) and returns its status and output.
    @discardableResult
    func run(_ executable: String, _ arguments: [String], timeout: Double = 20,
             adding extra: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let path = executable.hasPrefix("/") ? executable : "/usr/bin/" + executable
        let process = try Subprocess(path, arguments, environment: environment.merging(extra) { _, new in new })
        guard let status = process.wait(timeout: timeout) else {
            throw TestFailure("\(executable) \(arguments) did not finish in \(timeout)s")
        }
        return (status, process.stdout.trimmingCharacters(in: .newlines), process.stderr)
    }

    func chimectl(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(Self.chimectl, arguments)
    }

    /// chimectl with `TZ` set: what it prints in that time zone.
    func chimectl(timeZone: String, _ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(Self.chimectl, arguments, adding: ["TZ": timeZone])
    }

    func start(_ executable: String, _ arguments: [String]) throws -> Subprocess {
        try Subprocess(executable.hasPrefix("/") ? executable : "/usr/bin/" + executable, arguments, environment: environment)
    }

    /// Runs a program as a Flatpak app would: in a bubblewrap sandbox whose root holds
    /// `/.flatpak-info` naming `appID` (what chimed reads of a sender through /proc), with the
    /// system's programs and the test's bus. Returns its status and output.
    func runSandboxed(appID: String, _ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let info = directory.appendingPathComponent("flatpak-info-\(appID)")
        try "[Application]\nname=\(appID)\n".write(to: info, atomically: true, encoding: .utf8)
        let sandbox = ["--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                       "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--ro-bind", info.path, "/.flatpak-info",
                       "--bind", directory.path, directory.path, "--proc", "/proc", "--dev", "/dev", "--"]
        return try run("/usr/bin/bwrap", sandbox + [executable] + arguments)
    }

    /// A client connection of our own, to send exactly what a test needs.
    func client() throws -> TestClient { try TestClient(address: address) }

    /// Makes a program that writes down what it was asked to open the desktop's handler for
    /// `type` (a MIME type, or `x-scheme-handler/https`), as mimeapps.list in the test's config
    /// says; `field` is how its desktop file takes what it opens (`%u` a URI, `%f` a path).
    /// Returns the file it writes to. Call before chimed starts.
    func installHandler(for type: String, field: String) throws -> String {
        let opened = directory.appendingPathComponent("opened").path
        let applications = directory.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try """
        [Desktop Entry]
        Type=Application
        Name=Fake Handler
        Exec=/bin/sh -c 'echo "$1" > \(opened)' sh \(field)
        MimeType=\(type);
        """.write(to: applications.appendingPathComponent("fake-handler.desktop"), atomically: true, encoding: .utf8)
        try writeConfig("[Default Applications]\n\(type)=fake-handler.desktop\n", file: "../mimeapps.list")
        return opened
    }
}
