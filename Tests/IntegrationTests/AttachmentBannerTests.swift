import ChimeCore
import ChimeDBus
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Attachments on the screen, under Xvfb: the banner shows the first file's thumbnail and how
/// many more, from Chime's copies once the app's files are gone; a movie's thumbnail is made by
/// the system's thumbnailer (ffmpegthumbnailer, in bubblewrap); a click opens the file with the
/// desktop's handler; the panel shows every file.
@Suite(.serialized) struct AttachmentBannerTests {
    /// A red picture and a test-pattern movie (keyframes each second, so a time can be sought).
    static func makeFiles(in bus: TestBus) throws -> (picture: String, movie: String) {
        let folder = bus.directory.appendingPathComponent("app-files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let picture = folder.appendingPathComponent("red.png").path, movie = folder.appendingPathComponent("pattern.mp4").path
        for arguments in [["-f", "lavfi", "-i", "color=c=red:s=240x120", "-frames:v", "1", picture],
                          ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=4", "-g", "10", movie]] {
            let made = try bus.run("/usr/bin/ffmpeg", ["-loglevel", "error", "-y"] + arguments)
            guard made.status == 0 else { throw TestFailure("ffmpeg failed: \(made.stderr)") }
        }
        return (picture, movie)
    }

    /// The box (x, y, width, height) around the pixels near `color` in a region of a screenshot.
    static func box(of color: String, x: Int, y: Int, width: Int, height: Int, in shot: String) throws -> (Int, Int, Int, Int)? {
        let convert = try Subprocess("/usr/bin/convert", [shot, "-crop", "\(width)x\(height)+\(x)+\(y)", "+repage", "-fuzz", "12%",
                                                          "-fill", "black", "+opaque", color, "-format", "%@", "info:"],
                                     environment: ProcessInfo.processInfo.environment)
        guard convert.wait(timeout: 20) == 0 else { throw TestFailure("convert failed: \(convert.stderr)") }
        let numbers = convert.stdout.split { !$0.isNumber }.compactMap { Int($0) }
        guard numbers.count == 4, numbers[0] > 1, numbers[1] > 1 else { return nil }
        return (x + numbers[2], y + numbers[3], numbers[0], numbers[1])
    }

    static func attachments(_ entries: [[(String, BusValue)]]) -> (String, BusValue) {
        ("x-chime-attachments", .array(elementSignature: "a{sv}", entries.map { .vardict($0) }))
    }

    @Test(arguments: Drawing.allCases) func theBannerShowsTheFirstFileAndAClickOpensIt(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        // The desktop's handler: a program that writes down what it was asked to open.
        let opened = try bus.installHandler(for: "image/png", field: "%f")
        try bus.startDaemon()
        let files = try Self.makeFiles(in: bus)
        let client = try bus.client()
        let id = try client.notify(app: "Camera", summary: "New photos", hints: [Self.attachments([[("uri", .string(files.picture))], [("uri", .string(files.movie))]])], timeout: 0)
        for file in [files.picture, files.movie] { try FileManager.default.removeItem(atPath: file) }
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("attachments.png").path
        try display.screenshot(to: shot)
        let red = try #require(try Self.box(of: "red", x: banner.x, y: banner.y, width: banner.width, height: banner.height, in: shot),
                               "the picture's thumbnail is on the banner")
        #expect(red.2 >= 100 && red.3 >= 50, "drawn at its size, within the banner: \(red)")
        #expect(try Self.box(of: "yellow", x: banner.x, y: banner.y, width: banner.width, height: banner.height, in: shot) == nil,
                "only the first file is drawn; the movie is counted as +1")
        try display.click(x: red.0 + red.2 / 2, y: red.1 + red.3 / 2)
        let stored = try client.control("Show", [.uint32(id)]).first?.vardictEntries?["attachments"]?.records.first?["path"]?.string
        #expect(client.waitUntil { (try? String(contentsOfFile: opened, encoding: .utf8)) == (stored ?? "?") + "\n" },
                "the desktop's viewer opened Chime's copy")
        #expect(client.waitUntil {
            (try? client.pages("History", [("limit", .uint32(5))]).first { $0["id"] == .uint32(id) }?["unread"]) == .bool(false)
        }, "opening a file reads the notification")
    }

    @Test(arguments: Drawing.allCases) func aMovieThumbnailIsMadeByTheSystemsThumbnailer(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let files = try Self.makeFiles(in: bus)
        let client = try bus.client()
        let id = try client.notify(app: "Recorder", summary: "Screen recording", hints: [Self.attachments([[("uri", .string(files.movie)), ("thumbnail-time", .double(2))]])], timeout: 0)
        let stored = try #require(try client.control("Show", [.uint32(id)]).first?.vardictEntries?["attachments"]?.records.first?["path"]?.string)
        let cache = bus.directory.appendingPathComponent(".cache/thumbnails/large").path
        #expect(client.waitUntil(timeout: 20) { ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).contains { $0.hasSuffix(".png") } },
                "a thumbnail in the XDG cache: \(bus.daemonLog)")
        let thumbnail = cache + "/" + (try FileManager.default.contentsOfDirectory(atPath: cache).first { $0.hasSuffix(".png") } ?? "")
        let keys = try bus.run("/usr/bin/identify", ["-format", "%[Thumb::URI] %[Thumb::MTime]", thumbnail]).stdout
        #expect(keys.hasPrefix("file://" + stored + " "), "the specification's keys: \(keys)")
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("movie.png").path
        // The thumbnail replaces the placeholder icon once made: the pattern's yellow bar shows.
        #expect(client.waitUntil(timeout: 10) {
            (try? display.screenshot(to: shot)) != nil
                && (try? Self.box(of: "yellow", x: banner.x, y: banner.y, width: banner.width, height: banner.height, in: shot)) != nil
        }, "the movie's frame is on the banner")
    }

    @Test func thePanelShowsEveryFile() throws {
        let display = try XDisplay()
        try display.startWindowManager()
        let bus = try TestBus(display: display)
        let files = try Self.makeFiles(in: bus)
        let client = try bus.client()
        _ = try client.notify(app: "Camera", summary: "Two", hints: [Self.attachments([[("uri", .string(files.picture))], [("uri", .string(files.movie))]])], timeout: 1)
        #expect(try bus.chimectl("center", "open").status == 0)
        let panel = try #require(try display.waitForWindows("chime-center") { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("panel.png").path
        #expect(client.waitUntil(timeout: 20) {
            (try? display.screenshot(to: shot)) != nil
                && (try? Self.box(of: "red", x: panel.x, y: panel.y, width: panel.width, height: panel.height, in: shot)) != nil
                && (try? Self.box(of: "yellow", x: panel.x, y: panel.y, width: panel.width, height: panel.height, in: shot)) != nil
        }, "the picture and the movie's frame are both in the panel")
    }

    /// Audio chime-sound cannot play (a 32-bit WAV, which libcanberra would play as silence)
    /// opens in the desktop's player when its ▶ is clicked; asked to play it, chimed says why not.
    @Test(arguments: Drawing.allCases) func audioChimeCannotPlayOpensInTheDesktopsPlayer(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        let opened = try bus.installHandler(for: "audio/x-wav", field: "%f")
        try bus.startDaemon()
        let clip = bus.directory.appendingPathComponent("memo.wav").path
        let made = try bus.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "1", "-b", "32", "-e", "signed-integer", clip, "synth", "0.5", "sine", "660"])
        #expect(made.status == 0, "\(made.stderr)")
        let client = try bus.client()
        let id = try client.notify(app: "Recorder", summary: "Memo", hints: [Self.attachments([[("uri", .string(clip))]])], timeout: 0)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        // The play button: the first tile, at the banner's bottom left.
        try display.click(x: banner.x + 40, y: banner.y + banner.height - 22)
        let stored = try client.control("Show", [.uint32(id)]).first?.vardictEntries?["attachments"]?.records.first?["path"]?.string
        #expect(client.waitUntil { (try? String(contentsOfFile: opened, encoding: .utf8)) == (stored ?? "?") + "\n" },
                "the desktop's player opened Chime's copy")
        do {
            _ = try client.control("PlayAttachment", [.uint32(id), .uint32(0)])
            Issue.record("PlayAttachment took a file it plays as silence")
        } catch {
            #expect(error.name == BusError.invalidArgs && error.message.contains("is audio Chime does not play itself"), "\(error)")
        }
    }
}
