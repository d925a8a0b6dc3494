import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Media players as chimed meets them on a private bus (design section 25): a python MPRIS
/// player announces its tracks; "now playing" is passive, not unread, and one per app in the
/// center; the player's other notifications are as any app's; gone, the same text is news again.
@Suite struct MediaPlayerBusTests {
    func history(_ bus: TestBus) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try bus.chimectl("history", "--json").stdout.utf8)) as? [[String: Any]] ?? []
    }

    func players(_ bus: TestBus) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try bus.chimectl("players", "--json").stdout.utf8)) as? [[String: Any]] ?? []
    }

    func entry(_ bus: TestBus, _ id: UInt32) throws -> [String: Any]? {
        try history(bus).first { ($0["id"] as? Int) == Int(id) }
    }

    @Test func nowPlayingIsPassiveAndReplacesTheLastTrack() throws {
        let bus = try TestBus()
        let player = try TestMediaPlayer(bus: bus)
        defer { player.stop() }
        let client = try bus.client()
        try player.setTrack("Song A", artist: "The Testers")
        #expect(client.waitUntil { (try? players(bus).first?["title"] as? String) == "Song A" })
        let songA = try player.send("Now playing", "Song A — The Testers")
        #expect(client.waitUntil { (try? entry(bus, songA)) != nil })
        #expect(try entry(bus, songA)?["level"] as? String == "passive")
        #expect(try bus.chimectl("count", "--unread").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")

        try player.setTrack("Song B", artist: "The Testers")
        #expect(client.waitUntil { (try? players(bus).first?["title"] as? String) == "Song B" })
        let songB = try player.send("Now playing: Song B", "The Testers")
        #expect(client.waitUntil { (try? entry(bus, songB)) != nil && (try? entry(bus, songA)) == nil },
                "Song B takes Song A's place in the center: \((try? history(bus))?.map { $0["summary"] ?? "" } ?? [])")
        #expect(try entry(bus, songB)?["level"] as? String == "passive")
        #expect(try bus.chimectl("why", String(songB)).stdout.contains("now playing"))

        let failed = try player.send("Download failed", "the disk is full")
        #expect(client.waitUntil { (try? entry(bus, failed)) != nil })
        #expect(try entry(bus, failed)?["level"] as? String == "active")
        #expect(try entry(bus, failed)?["state"] as? String == "presented")

        // From another process, under the player's desktop entry: now playing while it plays.
        let hints = ["-h", "string:desktop-entry:testplayer", "-a", "Test Player", "-p"]
        let script = UInt32(try bus.run("notify-send", hints + ["Song B", "The Testers"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(client.waitUntil { (try? entry(bus, script)) != nil })
        #expect(try entry(bus, script)?["level"] as? String == "passive")

        player.stop()
        #expect(client.waitUntil { (try? players(bus).isEmpty) == true }, "the player left the bus")
        let after = UInt32(try bus.run("notify-send", hints + ["Song B", "The Testers"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(client.waitUntil { (try? entry(bus, after)) != nil })
        #expect(try entry(bus, after)?["level"] as? String == "active", "with the player gone, the same text is news")
    }

    @Test func chimectlControlsThePlayerAndWatchSaysWhatItPlays() throws {
        let bus = try TestBus()
        let player = try TestMediaPlayer(bus: bus)
        defer { player.stop() }
        let watch = try bus.start(TestBus.chimectl, ["watch"])
        defer { watch.signal(SIGTERM); _ = watch.wait() }
        #expect(watch.line(timeout: 10, matching: { $0.contains("\"event\":\"state\"") }) != nil)
        try player.setTrack("Song C", artist: "The Testers")
        #expect(watch.line(timeout: 10, matching: { $0.contains("\"event\":\"players\"") && $0.contains("Song C") }) != nil)
        // To a pipe: a row a player, tab-separated, named as `chimectl player` takes it.
        #expect(try bus.chimectl("players").stdout == "testplayer\tPlaying\tSong C\tThe Testers")
        #expect(try bus.chimectl("player", "play-pause").status == 0)
        let client = try bus.client()
        #expect(client.waitUntil { (try? player.calls().contains("PlayPause")) == true })
        #expect(try bus.chimectl("player", "next", "testplayer").status == 0)
        #expect(client.waitUntil { (try? player.calls().contains("Next")) == true })
        let unknown = try bus.chimectl("player", "next", "nosuchplayer")
        #expect(unknown.status == 1 && unknown.stderr.contains("no media player"), "\(unknown.stderr)")
        #expect(try bus.chimectl("player", "louder").status == 2)
    }

    @Test func nowPlayingCanBeTurnedOff() throws {
        let bus = try TestBus(config: "[app Test Player]\nnow-playing = false\n")
        let player = try TestMediaPlayer(bus: bus)
        defer { player.stop() }
        let client = try bus.client()
        try player.setTrack("Song D", artist: "The Testers")
        #expect(client.waitUntil { (try? players(bus).first?["title"] as? String) == "Song D" })
        let id = try player.send("Now playing", "Song D")
        #expect(client.waitUntil { (try? entry(bus, id)) != nil })
        #expect(try entry(bus, id)?["level"] as? String == "active")
    }
}
