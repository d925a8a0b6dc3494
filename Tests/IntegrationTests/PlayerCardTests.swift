import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The panel's player card under Xvfb and openbox (design section 25): it shows what the
/// player plays, follows it live, and its play/pause button reaches the player.
@Suite struct PlayerCardTests {
    @Test func theCardFollowsThePlayerAndItsButtonReachesIt() throws {
        let display = try XDisplay()
        try display.startWindowManager()
        let bus = try TestBus(display: display)
        // White art: a square the test finds on the dark panel.
        let art = bus.directory.appendingPathComponent("art.png").path
        _ = try bus.run("/usr/bin/convert", ["-size", "64x64", "xc:white", art])
        let player = try TestMediaPlayer(bus: bus, art: "file://" + art)
        defer { player.stop() }
        try player.setTrack("Song E", artist: "The Testers")
        let client = try bus.client()
        #expect(client.waitUntil { (try? bus.chimectl("players").stdout.contains("Song E")) == true })
        #expect(try bus.chimectl("center", "open").status == 0)
        let panelX = display.width - 420
        _ = try display.waitForWindows("chime-center") { $0.count == 1 }
        let shot = bus.directory.appendingPathComponent("card.png").path
        // The art's rows: a run of white down a column inside it.
        var artRows: Range<Int>?
        try display.screenshot(to: shot) { shot in
            artRows = Self.whiteRun(try XDisplay.column(x: panelX + 40, in: shot))
            return artRows != nil
        }
        let rows = try #require(artRows, "the card shows the player's art")
        let region = (x: panelX, y: rows.lowerBound, width: 420, height: rows.count)
        try player.setTrack("Song F", artist: "Other Testers")
        #expect(try display.waitUntilRedrawn(region, from: shot), "the card shows the new track")

        // Its buttons, left to right: previous, play/pause, next (the last runs of lighter pixels,
        // a button with its icon, on the art's middle row; the art itself is the first); a click
        // on the middle one asks the player to PlayPause.
        let middle = rows.lowerBound + rows.count / 2
        let row = try XDisplay.grey(x: panelX, y: middle, width: 420, height: 1, in: shot).first ?? []
        let buttons = Array(Self.runs(row, of: 0.19...1, atLeast: 20).suffix(3))
        #expect(buttons.count == 3 && buttons.allSatisfy { (30...60).contains($0.count) }, "\(buttons)")
        let playPause = try #require(buttons.dropFirst().first)
        try display.click(x: panelX + (playPause.lowerBound + playPause.upperBound) / 2, y: middle)
        #expect(client.waitUntil { (try? player.calls().contains("PlayPause")) == true }, "the player heard PlayPause")
        #expect(client.waitUntil { (try? bus.chimectl("players").stdout.contains("Paused")) == true })

        // Gone from the bus, gone from the panel.
        player.stop()
        #expect(try display.waitUntilRedrawn(region, from: shot))
        try display.screenshot(to: shot)
        #expect(Self.whiteRun(try XDisplay.column(x: panelX + 40, in: shot)) == nil, "no card once the player left")
    }

    /// Runs of at least `length` pixels whose grey is within `range`.
    static func runs(_ row: [Double], of range: ClosedRange<Double>, atLeast length: Int) -> [Range<Int>] {
        var found: [Range<Int>] = [], start: Int?
        for (x, grey) in (row + [0]).enumerated() {
            if range.contains(grey) {
                if start == nil { start = x }
            } else if let begun = start {
                if x - begun >= length { found.append(begun..<x) }
                start = nil
            }
        }
        return found
    }

    /// The first run of at least 40 white pixels.
    static func whiteRun(_ column: [Double]) -> Range<Int>? {
        var start: Int?
        for (y, grey) in (column + [0]).enumerated() {
            if grey > 0.95 {
                if start == nil { start = y }
            } else if let begun = start {
                if y - begun >= 40 { return begun..<y }
                start = nil
            }
        }
        return nil
    }
}
