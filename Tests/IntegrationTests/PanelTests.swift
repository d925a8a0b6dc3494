import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// The Notification Center panel on a real X server with a window manager (Xvfb and openbox)
/// and on a headless sway: opened with chimectl, where it is drawn, and what its keys do.
@Suite struct PanelTests {
    static let hints: [(String, BusValue)] = [("desktop-entry", .string("org.example.Mail"))]

    /// How many notifications the panel draws, as cards: runs of at least 30 pixels of a card's
    /// grey (the default style's #23252b, or #2a2d35 with the focus) down a column just inside
    /// their left edge, below the header; text there makes only shorter runs.
    static func cards(in shot: String, panelX: Int) throws -> Int {
        let column = try XDisplay.column(x: panelX + 20, in: shot).dropFirst(180)
        var runs = 0, length = 0
        for grey in column + [0] {
            if (0.13...0.19).contains(grey) {
                length += 1
            } else {
                if length >= 30 { runs += 1 }
                length = 0
            }
        }
        return runs
    }

    private static func centerOpen(_ bus: TestBus) throws -> Bool {
        try bus.chimectl("status", "--json").stdout.contains("\"center-open\":true")
    }

    /// With either program drawing the banners (chime-banners leaves the panel to a
    /// chime-presenter of its own).
    @Test(arguments: Drawing.allCases) func thePanelOpensAtItsEdgeAndIsDrivenFromTheKeyboard(_ drawing: Drawing) throws {
        let display = try XDisplay()
        try display.startWindowManager()
        let bus = try TestBus(display: display, drawing: drawing)
        let dock = try BadgeTests.Dock(bus: bus)
        let app = try bus.client()
        try app.listen()
        _ = try app.notify(app: "Chat", summary: "Lunch?", body: "12:30", timeout: 0)
        let ada = try app.notify(app: "Mail", summary: "Ada", body: "the notes", hints: Self.hints, timeout: 0)
        let grace = try app.notify(app: "Mail", summary: "Grace", body: "a moth", actions: ["default", "Open"], hints: Self.hints, timeout: 0)
        #expect(dock.waitFor("org.example.Mail", count: 2, visible: true))
        _ = try display.waitForWindows { $0.count == 3 }

        #expect(try bus.chimectl("center", "open").status == 0)
        let panel = try display.waitForWindows("chime-center") { $0.count == 1 }
        #expect(panel.first.map { [$0.x, $0.y, $0.width, $0.height] } == [display.width - 420, 0, 420, display.height], "\(panel)")
        #expect(try display.waitForWindows { $0.isEmpty }.isEmpty, "banners wait while the panel shows everything")
        #expect(try Self.centerOpen(bus))
        let shot = bus.directory.appendingPathComponent("panel.png").path
        // Polled: a panel whose program has just started is mapped before its list is drawn.
        try display.screenshot(to: shot) { try Self.cards(in: $0, panelX: display.width - 420) >= 3 }
        #expect(try XDisplay.brightness(x: display.width - 400, y: 300, width: 380, height: 200, in: shot) > 0.05, "the panel is drawn at the right")
        #expect(try XDisplay.brightness(x: 20, y: 300, width: 380, height: 200, in: shot) == 0, "nothing at the left")
        #expect(try Self.cards(in: shot, panelX: display.width - 420) == 3, "Mail's two and Chat's one, each a card")

        // The newest notification has the focus: Enter is its default action. The list is drawn
        // anew once the center says so (Grace read): keys sent before that would land on rows the
        // redraw replaces, so each step waits until the panel looks different.
        let region = (x: display.width - 420, y: 0, width: 420, height: display.height)
        try display.run("/usr/bin/xdotool", ["key", "Return"])
        #expect(app.waitUntil { app.signals(named: "ActionInvoked").contains { $0.arguments == [.uint32(grace), .string("default")] } })
        #expect(try display.waitUntilRedrawn(region, from: shot), "the panel shows Grace read")
        // Up to its group, Tab to the group's first button, Mark read: the dock's count falls to 0.
        let beforeRead = bus.directory.appendingPathComponent("before-read.png").path
        try display.screenshot(to: beforeRead)
        try display.run("/usr/bin/xdotool", ["key", "Up", "Tab", "Return"])
        #expect(dock.waitFor("org.example.Mail", count: 0, visible: false))
        #expect(try display.waitUntilRedrawn(region, from: beforeRead), "the panel shows Mail read")
        // Down past Grace to Ada, and Delete: dismissed (reason 2) and gone from the center.
        try display.run("/usr/bin/xdotool", ["key", "Down", "Down", "Delete"])
        #expect(app.waitUntil { app.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(ada), .uint32(2)] } })
        #expect(try bus.chimectl("show", "\(ada)").status == 1)

        // Escape closes it: the window goes, and the banner of what is still open comes back.
        try display.run("/usr/bin/xdotool", ["key", "Escape"])
        #expect(try display.waitForWindows("chime-center") { $0.isEmpty }.isEmpty)
        #expect(!(try Self.centerOpen(bus)))
        #expect(try display.waitForWindows { $0.count == 1 }.map(\.title) == ["chime-banner-1"])
    }

    /// From the header: "/" goes to the search field, Shift+Tab back to Mute, then to Do Not
    /// Disturb, whose menu's first choice turns it on for an hour.
    @Test func theHeaderTurnsAFocusOnFromTheKeyboard() throws {
        let display = try XDisplay()
        try display.startWindowManager()
        let bus = try TestBus(display: display)
        let watch = try bus.start(TestBus.chimectl, ["watch"])
        #expect(try bus.chimectl("center", "toggle").status == 0)
        _ = try display.waitForWindows("chime-center") { $0.count == 1 }
        try display.run("/usr/bin/xdotool", ["key", "slash", "shift+Tab", "shift+Tab", "Return"])
        usleep(300_000)  // the menu maps before it takes keys
        try display.run("/usr/bin/xdotool", ["key", "Return"])
        #expect(watch.line(timeout: 10) { $0.contains("\"focus\"") && $0.contains("\"dnd\"") } != nil, "FocusChanged: \(watch.stdout)")
        #expect(try bus.chimectl("dnd", "status").status == 0, "Do Not Disturb is on")
        #expect(try bus.chimectl("center", "toggle").status == 0)
        #expect(try display.waitForWindows("chime-center") { $0.isEmpty }.isEmpty)
        watch.signal(SIGKILL)
    }

    @Test func chimectlCenterRefusesWhatItCannotDo() throws {
        let bus = try TestBus()
        let wrong = try bus.chimectl("center", "sideways")
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("center takes open, close or toggle"))
        // No display: nothing can draw it, and it says why.
        let open = try bus.chimectl("center", "open")
        #expect(open.status == 1)
        #expect(open.stderr.contains("the panel cannot be drawn: banners are no-display"), "\(open.stderr)")
        #expect(try bus.chimectl("center", "close").status == 0)
    }
}

/// The panel on a wlroots compositor: a layer-shell column against the configured edge, which
/// holds the keyboard while open.
@Suite struct WaylandPanelTests {
    @Test func thePanelIsALayerSurfaceAtTheConfiguredEdgeAndEscapeClosesIt() throws {
        let bus = try TestBus(config: "[panel]\nedge = left\nwidth = 360\n", wayland: true)
        let wayland = try #require(bus.wayland)
        _ = try bus.client().notify(app: "Mail", summary: "on wayland", timeout: 0)
        let shot = bus.directory.appendingPathComponent("shot.png").path
        _ = try wayland.waitUntilTopRightDrawn(shot: shot)
        #expect(try bus.chimectl("center", "open").status == 0)
        let left = (x: 20, y: wayland.height / 2, width: 300, height: 100)
        let (empty, drawn) = try wayland.waitUntilDrawn(x: left.x, y: left.y, width: left.width, height: left.height, shot: shot,
                                                        emptyAt: (x: wayland.width - 340, y: wayland.height / 2))
        #expect(abs(drawn - empty) >= 0.02, "the panel is drawn at the left: \(empty) -> \(drawn)")
        #expect(try wayland.keyboardFocus() == 0, "the panel, a layer surface, has the keyboard")
        try wayland.press(key: 1)  // Escape
        let gone = Date().addingTimeInterval(10)
        var now = drawn
        repeat {
            try wayland.screenshot(to: shot)
            now = try XDisplay.brightness(x: left.x, y: left.y, width: left.width, height: left.height, in: shot)
        } while abs(now - empty) >= 0.02 && Date() < gone
        #expect(abs(now - empty) < 0.02, "gone after Escape")
        #expect(try bus.chimectl("status", "--json").stdout.contains("\"center-open\":false"))
    }
}
