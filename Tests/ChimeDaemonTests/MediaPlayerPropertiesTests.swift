import ChimeCore
import Foundation
import Testing
@testable import ChimeDaemon

/// What chimed takes of a player's MPRIS properties: the track, and art only from a local image
/// file that passes the checks any image passes; a web address is never fetched.
@Suite struct MediaPlayerPropertiesTests {
    let folder = temporaryFolder("player")

    static func metadata(art: String) -> [String: BusValue] {
        ["Metadata": .variant(.vardict([
            ("xesam:title", .variant(.string("Song A"))),
            ("xesam:artist", .variant(.stringArray(["The Band", "A Guest"]))),
            ("mpris:artUrl", .variant(.string(art))),
        ])), "PlaybackStatus": .variant(.string("Playing")), "CanGoNext": .variant(.bool(true)),
         "Identity": .variant(.string("Music"))]
    }

    @Test func theTrackAndLocalArt() throws {
        let path = folder.appendingPathComponent("art.png").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(ImageReferenceTests.png))
        var player = MediaPlayer(busName: "org.mpris.MediaPlayer2.music", owner: ":1.5")
        player.take(Self.metadata(art: "file://" + path))
        #expect(player.title == "Song A" && player.artists == ["The Band", "A Guest"])
        #expect(player.status == "Playing" && player.canGoNext && !player.canGoPrevious)
        #expect(player.displayName == "Music")
        #expect(player.art == path)
    }

    @Test func artThatIsNotALocalImageIsLeftOut() throws {
        let text = folder.appendingPathComponent("notes.png").path
        _ = FileManager.default.createFile(atPath: text, contents: Data("not an image".utf8))
        for art in ["https://example.org/cover.png", "file://" + text, "file:///nonexistent/cover.png", "/etc/passwd"] {
            var player = MediaPlayer(busName: "org.mpris.MediaPlayer2.music", owner: ":1.5")
            player.take(Self.metadata(art: art))
            #expect(player.art == nil, "\(art)")
            #expect(player.title == "Song A")
        }
    }

    @Test func aStatusPlayersDoNotSendIsIgnored() {
        var player = MediaPlayer(busName: "org.mpris.MediaPlayer2.music", owner: ":1.5")
        player.take(["PlaybackStatus": .variant(.string("Exploding"))])
        #expect(player.status == "Stopped")
    }
}
