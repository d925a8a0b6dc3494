import ChimeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// A private Xvfb for the popup tests, with what a person at it would see and do:
/// screenshots (ImageMagick's import), windows and clicks (xdotool).
final class XDisplay: @unchecked Sendable {
    let name: String
    private var server: Subprocess?
    private var windowManager: Subprocess?
    let width = 1280, height = 800

    init() throws {
        // Xvfb picks a free display number itself and prints it: tests start displays at once.
        let server = try Self.xvfb([])
        guard let number = server.line(timeout: 10, matching: { Int($0) != nil }) else {
            throw TestFailure("Xvfb did not start: \(server.stderr)")
        }
        name = ":\(number)"
        self.server = server
    }

    /// A display named now and started later (`start`), as one still coming up when chimed
    /// starts: a number from 400 on that no X server holds and no other test has named, since
    /// tests run at once and a number named is not held until its server starts.
    init(startingLater: Void) throws {
        let number = Self.named.withLock { named in
            let free = (400..<500).first { !named.contains($0) && access("/tmp/.X\($0)-lock", F_OK) != 0 }
            if let free { named.insert(free) }
            return free
        }
        guard let number else { throw TestFailure("no free X display number from 400 to 499") }
        name = ":\(number)"
    }

    /// The X server of a headless sway started with Xwayland: one X screen over its outputs, which
    /// RandR lists as monitors (XWAYLAND0, XWAYLAND1, ...). It ends with the sway.
    init(xwaylandOf sway: HeadlessSway) throws {
        name = try sway.xwaylandDisplay()
    }

    /// An X settings daemon (xsettingsd, as GNOME's and Xfce's publish GTK's settings) serving
    /// `config`, once it owns the settings; it reads the file again on SIGHUP.
    func settingsDaemon(config: URL) throws -> Subprocess {
        let daemon = try Subprocess("/usr/bin/xsettingsd", ["-c", config.path], environment: environment)
        guard daemon.line(onStderr: true, timeout: 10, matching: { $0.contains("Took ownership") }) != nil else {
            throw TestFailure("xsettingsd did not start: \(daemon.stderr)")
        }
        return daemon
    }

    /// Waits until RandR lists `count` monitors; returns `xrandr --listmonitors`.
    func waitForMonitors(_ count: Int) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var listed = ""
        while Date() < deadline {
            listed = try run("/usr/bin/xrandr", ["--listmonitors"])
            if listed.hasPrefix("Monitors: \(count)") { return listed }
            usleep(50_000)
        }
        throw TestFailure("not \(count) monitors: \(listed)")
    }

    /// The numbers `init(startingLater:)` has named in this test run.
    private static let named = Mutex<Set<Int>>([])

    func start() throws {
        let server = try Self.xvfb([name])
        guard server.line(timeout: 10, matching: { ":" + $0 == name }) != nil else { throw TestFailure("Xvfb \(name) did not start: \(server.stderr)") }
        self.server = server
    }

    private static func xvfb(_ display: [String]) throws -> Subprocess {
        // -noreset: what a client leaves on the root (xrdb's resources) stays when it disconnects,
        // as on a desktop, where the session keeps the server from resetting.
        try Subprocess("/usr/bin/Xvfb", display + ["-displayfd", "1", "-noreset", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                       environment: ProcessInfo.processInfo.environment)
    }

    deinit {
        windowManager?.signal(SIGTERM)
        _ = windowManager?.wait(timeout: 5)
        stop()
    }

    /// Runs openbox here, a window manager that says which window is active (EWMH) and
    /// focuses new windows.
    func startWindowManager() throws {
        windowManager = try Subprocess("/usr/bin/openbox", ["--sm-disable"], environment: environment)
    }

    /// Ends the X server, as when a session's display goes away.
    func stop() {
        guard let server, server.isRunning else { return }
        server.signal(SIGTERM)
        _ = server.wait(timeout: 5)
    }

    private var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = name
        return env
    }

    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = try Subprocess(executable, arguments, environment: environment)
        guard process.wait(timeout: 20) != nil else { throw TestFailure("\(executable) did not finish") }
        return process.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Window: Equatable {
        var title: String
        var x: Int, y: Int, width: Int, height: Int
    }

    /// Visible windows whose title starts with `prefix`, top to bottom.
    func windows(_ prefix: String = "chime-banner") throws -> [Window] {
        let ids = try run("/usr/bin/xdotool", ["search", "--onlyvisible", "--name", "^\(prefix)"]).split(separator: "\n")
        return try ids.map { id in
            let title = try run("/usr/bin/xdotool", ["getwindowname", String(id)])
            var fields: [String: Int] = [:]
            for line in try run("/usr/bin/xdotool", ["getwindowgeometry", "--shell", String(id)]).split(separator: "\n") {
                let parts = line.split(separator: "=")
                if parts.count == 2 { fields[String(parts[0])] = Int(parts[1]) }
            }
            return Window(title: title, x: fields["X"] ?? 0, y: fields["Y"] ?? 0, width: fields["WIDTH"] ?? 0, height: fields["HEIGHT"] ?? 0)
        }.filter { $0.title.hasPrefix(prefix) }.sorted { $0.y < $1.y }
    }

    /// What to add to a test's failure when `waitForWindows` times out (a TestBus drawing here
    /// sets it to chimed's log).
    var whenWaitFails: (() -> String)?

    /// Waits until `condition` holds for the visible banners (polling the X server, which has no
    /// event for "a window of ours appeared" that a test could await). At the timeout it records
    /// what it saw, and `whenWaitFails`, beside the test's own failure.
    func waitForWindows(_ prefix: String = "chime-banner", timeout: Double = 10, _ condition: ([Window]) -> Bool) throws -> [Window] {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = try windows(prefix)
        while !condition(seen), Date() < deadline {
            usleep(50_000)
            seen = try windows(prefix)
        }
        if !condition(seen) {
            Issue.record("after \(timeout) s the windows were \(seen.map(\.title)); \(whenWaitFails?() ?? "")")
        }
        return seen
    }

    /// The mean brightness (0 to 1) of a region of a screenshot (X11 or Wayland alike).
    static func brightness(x: Int, y: Int, width: Int, height: Int, in shot: String) throws -> Double {
        let convert = try Subprocess("/usr/bin/convert", [shot, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage",
                                                          "-colorspace", "Gray", "-format", "%[fx:mean]", "info:"],
                                     environment: ProcessInfo.processInfo.environment)
        guard convert.wait(timeout: 20) == 0 else { throw TestFailure("convert failed: \(convert.stderr)") }
        return Double(convert.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The grey level (0...1) of each pixel of column `x` of a screenshot, top to bottom.
    static func column(x: Int, in shot: String) throws -> [Double] {
        try grey(x: x, y: 0, width: 1, height: 100_000, in: shot).map { $0[0] }
    }

    /// The grey levels (0...1) of a region of a screenshot, row by row (a region past the
    /// screen's edge is cut there).
    static func grey(x: Int, y: Int, width: Int, height: Int, in shot: String) throws -> [[Double]] {
        // Plain PGM: "P2", width, height, maximum, then one number a pixel.
        let convert = try Subprocess("/usr/bin/convert", [shot, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "-colorspace", "Gray",
                                                          "-depth", "8", "-compress", "none", "pgm:-"],
                                     environment: ProcessInfo.processInfo.environment)
        guard convert.wait(timeout: 20) == 0 else { throw TestFailure("convert failed: \(convert.stderr)") }
        let words = convert.stdout.split(whereSeparator: \.isWhitespace)
        guard words.count >= 4, let columns = Int(words[1]), columns > 0 else { return [] }
        let values = words.dropFirst(4).compactMap { Double($0).map { $0 / 255 } }
        return stride(from: 0, to: values.count, by: columns).map { Array(values[$0..<min($0 + columns, values.count)]) }
    }

    /// Waits (up to 10 s) until a region of the screen differs from the same region of the
    /// screenshot `before`: what was there has been drawn anew. False when it never does.
    func waitUntilRedrawn(_ region: (x: Int, y: Int, width: Int, height: Int), from before: String) throws -> Bool {
        let now = before + ".now.png"
        let crop = "\(region.width)x\(region.height)+\(region.x)+\(region.y)"
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            try screenshot(to: now)
            // ImageMagick's count of pixels that differ, on stderr; exit status 1 when any do.
            let compare = try Subprocess("/usr/bin/compare", ["-metric", "AE", "(", before, "-crop", crop, "+repage", ")",
                                                              "(", now, "-crop", crop, "+repage", ")", "null:"],
                                         environment: ProcessInfo.processInfo.environment)
            _ = compare.wait(timeout: 20)
            if let differing = Double(compare.stderr.split(separator: " ").first ?? ""), differing > 0 { return true }
            usleep(50_000)
        }
        return false
    }

    func screenshot(to path: String) throws {
        try run("/usr/bin/import", ["-window", "root", path])
    }

    /// Screenshots the screen to `path` until `shows` says the shot holds what the test waits
    /// for, or `timeout` passes: nothing says when the X server has drawn a window.
    func screenshot(to path: String, timeout: Double = 10, until shows: (String) throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        repeat { try screenshot(to: path) } while try !shows(path) && Date() < deadline
    }

    func click(x: Int, y: Int, button: Int = 1) throws {
        try run("/usr/bin/xdotool", ["mousemove", "\(x)", "\(y)", "click", "\(button)"])
    }

    func moveMouse(x: Int, y: Int) throws {
        try run("/usr/bin/xdotool", ["mousemove", "\(x)", "\(y)"])
    }
}
