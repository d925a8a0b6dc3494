import ChimeTestSupport
import Foundation
import Glibc

/// A headless sway (`HeadlessSway`) for the popup tests on Wayland, with grim for screenshots and
/// a virtual pointer and keyboard.
final class WaylandSession: @unchecked Sendable {
    let runtimeDirectory: URL
    let socket = "wayland-1"
    /// The compositor; it stops with this session.
    private let sway: HeadlessSway
    /// A virtual pointer and keyboard (Tests/WaylandInput), there from the start: clients take a
    /// new device in their own time, and what it does before they have is lost.
    private var input: Subprocess?
    private let commandFile: URL
    private var commands = 0
    let width = 1280, height = 800

    init(in directory: URL) throws {
        sway = try HeadlessSway(in: directory, width: width, height: height)
        runtimeDirectory = sway.runtimeDirectory
        commandFile = directory.appendingPathComponent("wayland-input")
        var inputEnvironment = ProcessInfo.processInfo.environment
        inputEnvironment.merge(environment) { _, new in new }
        let input = try Subprocess(TestBus.binaries.appendingPathComponent("wayland-input").path, [commandFile.path],
                                   environment: inputEnvironment)
        guard input.line(timeout: 10, matching: { $0 == "ready" }) != nil else {
            throw TestFailure("wayland-input did not start: \(input.stderr)")
        }
        self.input = input
    }

    deinit {
        input?.signal(SIGTERM)
        _ = input?.wait(timeout: 5)
    }

    var environment: [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory.path]
    }

    /// A left click at x, y (or `button`, a Linux input code).
    func click(x: Int, y: Int, button: Int = 272) throws {
        try perform("click \(x) \(y) \(width) \(height) \(button)")
    }

    /// The pointer to x, y, where it stays.
    func movePointer(x: Int, y: Int) throws {
        try perform("move \(x) \(y) \(width) \(height)")
    }

    /// Types `text` (lowercase letters and spaces) and Return into whatever has the keyboard focus.
    func type(_ text: String) throws {
        try perform("type " + text)
    }

    /// Presses a key by its Linux input code (1 Escape, 28 Return, 103 Up, 108 Down, 111 Delete).
    func press(key code: Int) throws {
        try perform("key \(code)")
    }

    /// Hands wayland-input one command and waits until it is done.
    private func perform(_ command: String) throws {
        guard let input else { throw TestFailure("no wayland-input") }
        try (command + "\n").write(to: commandFile, atomically: true, encoding: .utf8)
        commands += 1
        input.signal(SIGUSR1)
        guard input.line(timeout: 10, matching: { [commands] in $0 == "done \(commands)" }) != nil else {
            throw TestFailure("wayland-input did not do '\(command)': \(input.stderr)")
        }
    }

    /// What has sway's keyboard focus: a window or workspace's id, 0 for a layer surface such as
    /// a banner (`swaymsg -t get_seats`).
    func keyboardFocus() throws -> Int {
        let output = try swaymsg(["-t", "get_seats"])
        guard let seats = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]],
              let focus = seats.first?["focus"] as? Int else { throw TestFailure("swaymsg get_seats: \(output)") }
        return focus
    }

    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> String { try sway.swaymsg(arguments) }

    /// Waits (up to 10 s) until the region of the screen looks other than the same area at
    /// `emptyAt` (by default in the bottom-left corner, where no banner goes): something is drawn
    /// there. Returns the two brightnesses of the last screenshot, taken to `shot`.
    /// `output`: of that output alone (its own coordinates), not of the whole layout.
    func waitUntilDrawn(x: Int, y: Int, width: Int, height: Int, shot: String, output: String? = nil,
                        emptyAt: (x: Int, y: Int)? = nil) throws -> (empty: Double, drawn: Double) {
        var empty = 0.0, drawn = 0.0
        let reference = emptyAt ?? (x: 20, y: self.height - height - 20)
        let deadline = Date().addingTimeInterval(10)
        repeat {
            try screenshot(to: shot, output: output)
            empty = try XDisplay.brightness(x: reference.x, y: reference.y, width: width, height: height, in: shot)
            drawn = try XDisplay.brightness(x: x, y: y, width: width, height: height, in: shot)
        } while abs(drawn - empty) < 0.02 && Date() < deadline
        return (empty, drawn)
    }

    /// Waits until a banner is drawn in the top-right corner of `output`, or of the whole layout;
    /// `outputWidth`: that output's width, the first's by default.
    func waitUntilTopRightDrawn(shot: String, output: String? = nil, outputWidth: Int? = nil) throws -> (empty: Double, drawn: Double) {
        // Against the same band further left: a window's title bar there is the same.
        try waitUntilDrawn(x: Self.topRightX(outputWidth ?? width), y: Self.topRightY, width: Self.topRightSize.width,
                           height: Self.topRightSize.height, shot: shot, output: output, emptyAt: (x: Self.referenceX, y: Self.topRightY))
    }

    /// Whether the top-right corner of `output` (as wide as the first) looks like its background.
    func topRightIsEmpty(on output: String, shot: String) throws -> Bool {
        try screenshot(to: shot, output: output)
        let corner = try XDisplay.brightness(x: Self.topRightX(width), y: Self.topRightY, width: Self.topRightSize.width,
                                             height: Self.topRightSize.height, in: shot)
        let background = try XDisplay.brightness(x: Self.referenceX, y: Self.topRightY, width: Self.topRightSize.width,
                                                 height: Self.topRightSize.height, in: shot)
        return abs(corner - background) < 0.02
    }

    /// A plain part of a top-right banner of the default width (380) and margin (12): its top
    /// edge between the app name and the close button, where no text goes (text's share of a
    /// region changes its brightness with the font, and can cancel the banner's own).
    static func topRightX(_ outputWidth: Int) -> Int { outputWidth - 380 - 12 + 140 }
    static let topRightY = 16
    static let topRightSize = (width: 120, height: 8)
    /// The same band's reference, left of any banner and right of a window title's text.
    static let referenceX = 400

    /// How wide the output `swaymsg create_output` adds is.
    static let addedOutputWidth = 1920

    func screenshot(to path: String, output: String? = nil) throws {
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        let grim = try Subprocess("/usr/bin/grim", (output.map { ["-o", $0] } ?? []) + [path], environment: env)
        guard grim.wait(timeout: 20) == 0 else { throw TestFailure("grim failed: \(grim.stderr)") }
    }
}
