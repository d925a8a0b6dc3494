import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The panel's groups and keys under a search, on Xvfb with openbox: what the person sees is
/// what the buttons and keys act on.
@Suite struct PanelGroupTests {
    /// An open panel on a display, and a way to press keys one step at a time: each step waits
    /// until the panel looks different, so no key lands on rows a redraw is about to replace.
    struct OpenPanel {
        let display: XDisplay
        let bus: TestBus
        var steps = 0

        init(config: String? = nil, before: (TestBus) throws -> Void) throws {
            display = try XDisplay()
            try display.startWindowManager()
            bus = try TestBus(config: config, display: display)
            try before(bus)
            #expect(try bus.chimectl("center", "open").status == 0)
            _ = try display.waitForWindows("chime-center") { $0.count == 1 }
            // Mapped before its list is drawn: the first notification's row has the focus once it is.
            let shot = bus.directory.appendingPathComponent("panel.png").path
            try display.screenshot(to: shot) { try PanelTests.cards(in: $0, panelX: display.width - 420) > 0 }
        }

        var region: (x: Int, y: Int, width: Int, height: Int) { (display.width - 420, 0, 420, display.height) }

        /// xdotool's arguments (`key Down`, `type disk`), then the panel drawn anew.
        mutating func step(_ arguments: String...) throws {
            steps += 1
            let before = bus.directory.appendingPathComponent("step-\(steps).png").path
            try display.screenshot(to: before)
            try display.run("/usr/bin/xdotool", arguments)
            #expect(try display.waitUntilRedrawn(region, from: before), "the panel did not change after \(arguments)")
        }

        func count(_ arguments: String...) throws -> Int {
            try bus.run(TestBus.chimectl, Array(arguments)).stdout.split(separator: "\n").count
        }
    }

    /// Under a search for "disk", Weather's group shows 2 of its 6: its Clear takes those 2
    /// (once, 6); a search that shows 1 of Calendar's 7 marks that 1 read (once, 7).
    @Test func aGroupsButtonsActOnWhatItShows() throws {
        var panel = try OpenPanel { bus in
            let app = try bus.client()
            for index in 1...7 { _ = try app.notify(app: "Calendar", summary: index == 3 ? "Dentist" : "Meeting \(index)", timeout: 0) }
            for index in 1...6 { _ = try app.notify(app: "Weather", summary: "Station \(index)", body: index <= 2 ? "low disk" : "sunny", timeout: 0) }
        }
        try panel.step("key", "slash")
        try panel.step("type", "disk")
        // From the search: Weather's header, then "Mark 2 read", then "Clear 2".
        try panel.step("key", "Tab")
        try panel.step("key", "Tab")
        try panel.step("key", "Tab")
        try panel.step("key", "Return")
        #expect(try panel.count("history", "--app", "Weather") == 4, "only the 2 shown were cleared")
        #expect(try panel.count("history", "--app", "Calendar") == 7)

        try panel.step("key", "slash")
        try panel.step("key", "ctrl+a", "BackSpace")
        try panel.step("type", "dentist")
        try panel.step("key", "Tab")
        try panel.step("key", "Tab")
        try panel.step("key", "Return")
        #expect(try panel.count("history", "--app", "Calendar", "--state", "unread") == 6, "only the 1 shown was marked read")
        #expect(try panel.count("history", "--app", "Calendar") == 7)
    }

    /// The header's Mark all read and Clear all (as swaync has them) act on every group shown:
    /// the unread count drops to none, then the center empties and the panel says so.
    @Test func markAllReadAndClearAllEmptyTheCenter() throws {
        var panel = try OpenPanel { bus in
            let app = try bus.client()
            for index in 1...3 { _ = try app.notify(app: "Calendar", summary: "Meeting \(index)", timeout: 0) }
            for index in 1...2 { _ = try app.notify(app: "Weather", summary: "Station \(index)", timeout: 0) }
        }
        #expect(try panel.count("history", "--state", "unread") == 5)
        try panel.step("key", "slash")
        try panel.step("key", "shift+Tab")  // Clear all
        try panel.step("key", "shift+Tab")  // Mark all read
        try panel.step("key", "Return")
        #expect(try panel.count("history", "--state", "unread") == 0, "every one read")
        #expect(try panel.count("history") == 5, "and still in the center")
        #expect(try panel.bus.chimectl("count", "--unread").stdout == "0")

        // Mark all read is greyed now, and gave the focus away: back from the search.
        try panel.step("key", "slash")
        try panel.step("key", "shift+Tab")  // Clear all
        try panel.step("key", "Return")
        let client = try panel.bus.client()
        #expect(client.waitUntil { (try? panel.count("history")) == 0 }, "the center is empty")
        let shot = panel.bus.directory.appendingPathComponent("empty.png").path
        try panel.display.screenshot(to: shot)
        #expect(try PanelTests.cards(in: shot, panelX: panel.region.x) == 0, "no notification drawn")
    }

    /// Down from the search field reaches the list, though the Scheduled Summary's card (whose
    /// title takes no focus) is at its top.
    @Test func downFromTheSearchReachesTheListUnderASummaryCard() throws {
        var panel = try OpenPanel { bus in
            _ = try bus.run("notify-send", ["-a", "Digest", "setup", "x"])
            #expect(try bus.chimectl("apps", "set", "Digest", "delivery=summary").status == 0)
            _ = try bus.run("notify-send", ["-a", "Digest", "story", "x"])
            #expect(try bus.chimectl("summary", "now").status == 0)
            _ = try bus.run("notify-send", ["-a", "Weather", "-t", "0", "Forecast", "sunny"])
        }
        let forecast = try panel.bus.chimectl("history", "--app", "Weather", "--json")
        #expect(forecast.stdout.contains("Forecast"))
        try panel.step("key", "slash")
        try panel.step("type", "x")
        try panel.step("key", "Escape")  // empties the search, and stays in it
        try panel.step("key", "Down")  // the summary's card
        try panel.step("key", "Down")  // Weather's header
        try panel.step("key", "Down")  // the forecast
        try panel.display.run("/usr/bin/xdotool", ["key", "Delete"])
        let client = try panel.bus.client()
        #expect(client.waitUntil { (try? panel.count("history", "--app", "Weather")) == 0 }, "Delete took the focused forecast")
        #expect(try panel.bus.chimectl("history").stdout.contains("Scheduled Summary"), "the card stays")
    }

    /// The share of a region's pixels of the header's problem strip (#e5c07b, the shipped style).
    static func problemStrip(in shot: String, x: Int) throws -> Double {
        let convert = try Subprocess("/usr/bin/convert", [shot, "-crop", "420x200+\(x)+0", "+repage", "-fuzz", "4%",
                                                          "-fill", "black", "+opaque", "#e5c07b", "-fill", "white", "-opaque", "#e5c07b",
                                                          "-format", "%[fx:mean]", "info:"],
                                     environment: ProcessInfo.processInfo.environment)
        _ = convert.wait(timeout: 20)
        return Double(convert.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// A mistake in the config shows in the panel's header until a reload finds it fixed.
    @Test func theHeaderSaysTheConfigHasAProblemUntilItIsFixed() throws {
        let panel = try OpenPanel(config: "[general]\nprevieuws = never\n") { bus in
            _ = try bus.run("notify-send", ["-a", "Weather", "-t", "0", "Forecast", "sunny"])
        }
        let shot = panel.bus.directory.appendingPathComponent("problem.png").path
        try panel.display.screenshot(to: shot)
        #expect(try Self.problemStrip(in: shot, x: panel.region.x) > 0.03, "a strip of the header says so")
        try panel.bus.writeConfig("[general]\npreviews = never\n")
        #expect(try panel.bus.chimectl("reload").status == 0)
        #expect(try panel.display.waitUntilRedrawn(panel.region, from: shot))
        let fixed = panel.bus.directory.appendingPathComponent("fixed.png").path
        let client = try panel.bus.client()
        #expect(client.waitUntil {
            (try? panel.display.screenshot(to: fixed)) != nil && (try? Self.problemStrip(in: fixed, x: panel.region.x)) == 0
        }, "gone once fixed")
    }
}

/// `[panel] width` is the panel's width whatever it shows: buttons that do not fit wrap.
@Suite struct PanelWidthTests {
    static let config = "[panel]\nwidth = 420\n\n[focus work]\n\n[focus gym]\n"

    static func notifyWide(_ bus: TestBus) throws {
        let client = try bus.client()
        _ = try client.notify(app: "Mail", summary: "three actions",
                              actions: ["a", "Reply to sender", "b", "Mark as spam now", "c", "Archive this one"], timeout: 0)
        _ = try client.notify(app: "Chat", summary: "hello", timeout: 0)
    }

    /// Where the panel begins in the row `y` of a screenshot (above its text): the first column
    /// unlike the desktop's background at the left edge.
    static func panelLeft(in shot: String, y: Int, screenWidth: Int) throws -> Int? {
        let row = try XDisplay.grey(x: 0, y: y, width: screenWidth, height: 1, in: shot).first ?? []
        return row.indices.first { abs(row[$0] - row[0]) > 0.04 }
    }

    @Test func onWaylandThePanelKeepsItsWidthWhateverItShows() throws {
        let bus = try TestBus(config: Self.config, wayland: true)
        let wayland = try #require(bus.wayland)
        try Self.notifyWide(bus)
        #expect(try bus.chimectl("center", "open").status == 0)
        let shot = bus.directory.appendingPathComponent("panel.png").path
        let x = wayland.width - 420 + 20
        _ = try wayland.waitUntilDrawn(x: x, y: 300, width: 380, height: 100, shot: shot, emptyAt: (x: 20, y: 300))
        #expect(try Self.panelLeft(in: shot, y: 5, screenWidth: wayland.width) == wayland.width - 420, "420 wide")
        // A search that leaves out the wide notification: once it is drawn, the width is the same.
        let list = (x: wayland.width - 400, y: 200, width: 380, height: 300)
        let before = try XDisplay.brightness(x: list.x, y: list.y, width: list.width, height: list.height, in: shot)
        try wayland.press(key: 53)  // "/": the search field
        try wayland.type("hello")
        let client = try bus.client()
        #expect(client.waitUntil {
            (try? wayland.screenshot(to: shot)) != nil
                && abs(((try? XDisplay.brightness(x: list.x, y: list.y, width: list.width, height: list.height, in: shot)) ?? before) - before) > 0.01
        }, "the search is drawn")
        let left = try Self.panelLeft(in: shot, y: 5, screenWidth: wayland.width)
        #expect(left == wayland.width - 420, "420 wide during a search")
    }

    @Test func onX11ThePanelKeepsItsWidthWhateverItShows() throws {
        let display = try XDisplay()
        try display.startWindowManager()
        let bus = try TestBus(config: Self.config, display: display)
        try Self.notifyWide(bus)
        #expect(try bus.chimectl("center", "open").status == 0)
        let panel = try display.waitForWindows("chime-center") { $0.count == 1 }
        #expect(panel.first?.width == 420 && panel.first?.x == display.width - 420, "\(panel)")
    }
}
