import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// What the person is doing, from a real display: a GTK window of a known app focused under a
/// headless sway (wlr-foreign-toplevel) and under Xvfb with openbox (EWMH). Its own
/// notifications come quietly; fullscreen holds the rest until it ends, then one summary shows.
/// Serialized: each test runs a display and a sound server.
@Suite(.serialized) struct DesktopContextBusTests {
    static let app = "dev.chime.TestWindow"

    func status(_ client: TestClient) -> [String: BusValue] {
        (try? client.control("GetStatus").first?.vardictEntries) ?? [:]
    }

    func state(of summary: String, in client: TestClient) -> String? {
        (try? client.list())?.last { $0["summary"]?.string == summary }?["state"]?.string
    }

    /// Opens the window and waits until chimed says it has the focus.
    func openWindow(on bus: TestBus, client: TestClient) throws -> Subprocess {
        let window = try bus.start(TestBus.binaries.appendingPathComponent("test-window").path, [Self.app])
        #expect(window.line(timeout: 10, matching: { $0 == "shown" }) != nil, "test-window: \(window.stderr)")
        #expect(client.waitUntil { status(client)["focused-app"]?.string == Self.app }, "\(status(client))")
        return window
    }

    /// The focused app's notification: in the center, quiet, and silent on the recorded sink.
    func sendFromTheFocusedApp(bus: TestBus, client: TestClient, pulse: PulseServer) throws {
        let recording = try pulse.record()
        _ = try bus.run("notify-send", ["-h", "string:desktop-entry:\(Self.app)", "in front"])
        #expect(client.waitUntil { state(of: "in front", in: client) == "quiet" }, "\(String(describing: try? client.list()))")
        recording.grow(by: 1.0)
        #expect(try recording.stopAndMeasure() == 0)
        #expect(!bus.daemonLog.contains("sound started"))
    }

    /// Another app's notification interrupts, with its sound.
    func sendFromAnotherApp(bus: TestBus, client: TestClient, pulse: PulseServer) throws {
        let recording = try pulse.record()
        let daemon = try #require(bus.daemon)
        daemon.drain()
        let before = daemon.stderrLines.count
        _ = try bus.run("notify-send", ["from another app"])
        #expect(daemon.line(onStderr: true, from: before, timeout: 15, matching: { $0.contains("sound finished") }) != nil)
        recording.grow(by: 0.3)
        #expect(try recording.stopAndMeasure() > 0.01)
        #expect(state(of: "from another app", in: client) == "presented")
    }

    /// While fullscreen, another app's notification waits, and so does an urgent one of an app
    /// new to Chime, with nothing of Chime's own about it on screen (`noBanner`); leaving
    /// fullscreen shows one summary and nothing else.
    func holdWhileFullscreen(bus: TestBus, client: TestClient, enter: () throws -> Void, leave: () throws -> Void,
                             noBanner: () throws -> Bool) throws {
        try enter()
        #expect(client.waitUntil { status(client)["fullscreen"]?.bool == true }, "\(status(client))")
        #expect(status(client)["focus"]?.string == FocusMode.fullscreen)
        _ = try bus.run("notify-send", ["during the film"])
        _ = try bus.run("notify-send", ["-u", "critical", "-a", "battery", "Battery at 3%"])
        #expect(client.waitUntil { state(of: "during the film", in: client) == "held-by-focus" })
        #expect(client.waitUntil { state(of: "Battery at 3%", in: client) == "held-by-focus" })
        #expect(try client.list().filter { $0["state"]?.string == "presented" }.isEmpty, "no banner at all while fullscreen")
        #expect(try noBanner(), "nothing drawn over the fullscreen window")
        try leave()
        #expect(client.waitUntil { state(of: "While Full Screen was on", in: client) == "presented" })
        #expect(state(of: "during the film", in: client) == "quiet", "in the center, not a banner of its own")
        #expect(try client.list().filter { $0["state"]?.string == "presented" }.map { $0["summary"]?.string } == ["While Full Screen was on"],
                "one recap after")
    }

    @Test func underSway() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(pulse: pulse, wayland: true)
        let wayland = try #require(bus.wayland)
        let client = try bus.client()
        #expect(client.waitUntil { status(client)["desktop"]?.string == "wlr-foreign-toplevel" }, "\(status(client))")
        let window = try openWindow(on: bus, client: client)
        defer { window.signal(SIGTERM) }
        let shot = bus.directory.appendingPathComponent("shot.png").path
        try sendFromTheFocusedApp(bus: bus, client: client, pulse: pulse)
        #expect(try wayland.topRightIsEmpty(on: "HEADLESS-1", shot: shot), "no banner")
        try sendFromAnotherApp(bus: bus, client: client, pulse: pulse)
        let corner = try wayland.waitUntilTopRightDrawn(shot: shot)
        #expect(abs(corner.drawn - corner.empty) >= 0.02, "its banner is drawn")
        _ = try bus.chimectl("dismiss", "--all")
        try holdWhileFullscreen(bus: bus, client: client,
                                enter: { try wayland.swaymsg(["fullscreen", "enable"]) },
                                leave: { try wayland.swaymsg(["fullscreen", "disable"]) },
                                noBanner: { try wayland.topRightIsEmpty(on: "HEADLESS-1", shot: shot) })
        let chimectl = try bus.chimectl("status")
        #expect(chimectl.stdout.contains("focused app: \(Self.app) (from wlr-foreign-toplevel)"), "\(chimectl.stdout)")
    }

    @Test func underOpenboxOnX11() throws {
        let pulse = try PulseServer()
        let display = try XDisplay()
        try display.startWindowManager()
        let bus = try TestBus(pulse: pulse, display: display)
        let client = try bus.client()
        #expect(client.waitUntil { status(client)["desktop"]?.string == "ewmh" }, "\(status(client))")
        let window = try openWindow(on: bus, client: client)
        defer { window.signal(SIGTERM) }
        try sendFromTheFocusedApp(bus: bus, client: client, pulse: pulse)
        #expect(try display.windows().isEmpty, "no banner")
        try sendFromAnotherApp(bus: bus, client: client, pulse: pulse)
        #expect(try display.waitForWindows { $0.count == 1 }.count == 1, "its banner is drawn")
        _ = try bus.chimectl("dismiss", "--all")
        _ = try display.waitForWindows { $0.isEmpty }
        // As a video player does: the window asks the window manager for fullscreen.
        try holdWhileFullscreen(bus: bus, client: client,
                                enter: { window.signal(SIGUSR1) }, leave: { window.signal(SIGUSR1) },
                                noBanner: { try display.windows().isEmpty })
    }

    /// A compositor that quits and starts again is followed again; meanwhile a fullscreen
    /// window that went with it holds nothing.
    @Test func whenSwayStartsAgainItIsFollowedAgain() throws {
        let bus = try TestBus(wayland: true)
        let client = try bus.client()
        do {  // the first sway and its window are held only here
            let wayland = try #require(bus.wayland)
            let window = try openWindow(on: bus, client: client)
            defer { window.signal(SIGTERM) }
            try wayland.swaymsg(["fullscreen", "enable"])
            #expect(client.waitUntil { status(client)["focus"]?.string == FocusMode.fullscreen })
        }
        try bus.restartWayland()
        #expect(client.waitUntil { status(client)["desktop"]?.string == "wlr-foreign-toplevel" && status(client)["focus"]?.string == "" },
                "\(status(client)) \(bus.daemonLog)")
        #expect(bus.logSays("not following the focused window or fullscreen: the display went away"))
        let window = try openWindow(on: bus, client: client)
        window.signal(SIGTERM)
    }

    /// Without a display, nothing is followed and status says why.
    @Test func withoutADisplayStatusSaysTheRulesDoNotApply() throws {
        let bus = try TestBus()
        let client = try bus.client()
        #expect(status(client)["desktop"]?.string == "")
        let chimectl = try bus.chimectl("status")
        #expect(chimectl.stdout.contains("focused app and fullscreen: not followed: neither WAYLAND_DISPLAY nor DISPLAY is set"), "\(chimectl.stdout)")
    }
}
