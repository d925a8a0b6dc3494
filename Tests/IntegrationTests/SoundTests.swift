import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Sound proven by recording a headless PulseAudio's null sink and measuring it with sox.
/// Serialized: each test runs its own sound server, and two cores are enough for one at a time.
@Suite(.serialized) struct SoundTests {
    static let config = """
    [app Alarm]
    critical-alerts = true

    [sounds]
    minimum-gap = 0
    """

    /// Sends with notify-send, waits for chimed to say the sound finished, and measures what was recorded.
    func peak(of arguments: [String], bus: TestBus, pulse: PulseServer) throws -> Double {
        let recording = try pulse.record()
        let daemon = try #require(bus.daemon)
        daemon.drain()
        let before = daemon.stderrLines.count
        _ = try bus.run("notify-send", arguments)
        guard daemon.line(onStderr: true, from: before, timeout: 15, matching: { $0.contains("sound finished") }) != nil else {
            Issue.record("no sound finished for \(arguments): \(daemon.stderr)")
            return 0
        }
        recording.grow(by: 0.3)  // the monitor's buffer drains after playback ends
        return try recording.stopAndMeasure()
    }

    /// Sends, waits until chimed has stored the notification, records a further second, and measures.
    func peakWithoutSound(of arguments: [String], summary: String, bus: TestBus, pulse: PulseServer) throws -> Double {
        let recording = try pulse.record()
        _ = try bus.run("notify-send", arguments)
        let client = try bus.client()
        #expect(client.waitUntil { (try? client.list())?.contains { $0["summary"]?.string == summary } == true })
        recording.grow(by: 1.0)
        #expect(!bus.daemonLog.contains("sound started"))
        return try recording.stopAndMeasure()
    }

    /// Design section 21: a volume script's OSD (`-u low`, a value, a stack tag) shows at once,
    /// updated in place, silent, and leaves nothing unread or in the center, under Do Not
    /// Disturb too.
    @Test func anOSDScriptsFeedbackShowsSilentlyAndLeavesNothing() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        #expect(try bus.chimectl("dnd", "on").status == 0)
        let osd = { (value: Int) in ["-u", "low", "-h", "int:value:\(value)", "-h", "string:x-dunst-stack-tag:volume", "Volume"] }
        #expect(try peakWithoutSound(of: osd(40), summary: "Volume", bus: bus, pulse: pulse) == 0)
        _ = try bus.run("notify-send", osd(50))
        let client = try bus.client()
        #expect(client.waitUntil { (try? client.list())?.first?["progress"]?.integer == 50 })
        let open = try client.list()
        #expect(open.count == 1 && open.first?["state"]?.string == "presented", "one banner, updated in place: \(open)")
        #expect(open.first?["reasons"]?.strings?.contains("feedback you caused (a stack tag and a value): shown at once, silent, not kept in the center") == true)
        #expect(try bus.chimectl("count", "--unread").stdout == "0")
        #expect(try bus.chimectl("history").stdout.isEmpty, "not kept in the center")
    }

    @Test func activeTimeSensitiveAndCriticalPlay() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        #expect(try peak(of: ["-a", "Mail", "active", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(try peak(of: ["-a", "Calendar", "-u", "critical", "time-sensitive", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(bus.logSays("sound started: event chime-time-sensitive"))
        #expect(try peak(of: ["-a", "Alarm", "-h", "string:x-chime-interruption-level:critical", "critical", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(bus.logSays("sound started: event chime-critical"))
    }

    /// Forty updates of one stack tag, as a volume key held down: one sound, not forty.
    @Test func fortyStackTagUpdatesMakeOneSound() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config + "\n[general]\nrate-limit-burst = 100\n", pulse: pulse)
        let recording = try pulse.record()
        let client = try bus.client()
        for level in 0..<40 {
            _ = try client.notify(app: "volume", summary: "\(level)%", hints: [("x-dunst-stack-tag", .string("volume"))], timeout: 0)
        }
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true, timeout: 15) { $0.contains("sound finished") } != nil)
        recording.grow(by: 1.0)
        #expect(try recording.stopAndMeasure() > 0.05)
        #expect(bus.daemonLog.components(separatedBy: "sound started").count - 1 == 1, "\(bus.daemonLog)")
    }

    @Test func passiveSuppressedMutedAndHeldAreSilent() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        #expect(try peakWithoutSound(of: ["-u", "low", "passive", "x"], summary: "passive", bus: bus, pulse: pulse) == 0)
        #expect(try peakWithoutSound(of: ["-h", "boolean:suppress-sound:true", "suppressed", "x"], summary: "suppressed", bus: bus, pulse: pulse) == 0)
        #expect(try bus.chimectl("mute", "on").status == 0)
        #expect(try peakWithoutSound(of: ["muted", "x"], summary: "muted", bus: bus, pulse: pulse) == 0)
        #expect(try bus.chimectl("mute", "off").status == 0)
        #expect(try bus.chimectl("dnd", "on").status == 0)
        #expect(try peakWithoutSound(of: ["held", "x"], summary: "held", bus: bus, pulse: pulse) == 0)
    }

    @Test func criticalPlaysEvenWhenMutedAndMuteIsKept() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        #expect(try bus.chimectl("mute", "on").status == 0)
        #expect(try peak(of: ["-a", "Alarm", "-h", "string:x-chime-interruption-level:critical", "fire", "x"], bus: bus, pulse: pulse) > 0.05)
        try bus.restartChimed()
        #expect(try bus.chimectl("status").stdout.contains("sound: muted"))
    }

    @Test func soundFileAndSoundName() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        let file = TestBus.packageRoot.appendingPathComponent("sounds/chime/stereo/chime-critical.oga").path
        #expect(try peak(of: ["-h", "string:sound-file:\(file)", "with file", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(bus.logSays("sound started: file \(file)"))
        // As python desktop-notifier sends it: a file:// URI, escapes and all.
        let copy = bus.directory.appendingPathComponent("my chime.oga")
        try FileManager.default.copyItem(atPath: file, toPath: copy.path)
        let uri = "file://" + copy.path.replacingOccurrences(of: " ", with: "%20")
        #expect(try peak(of: ["-h", "string:sound-file:\(uri)", "with a URI", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(bus.logSays("sound started: file \(copy.path)"))
        #expect(try peak(of: ["-h", "string:sound-name:no-such-sound", "unknown name", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(bus.logSays("sound started: event message-new-instant"))
    }

    /// The notification portal passes a sound as a descriptor (a sealed memfd): its bytes play,
    /// kept as a file of chimed's; `silent` plays nothing.
    @Test func aPortalSoundFromADescriptorPlays() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        let frontend = try PortalTests.frontend(bus)
        let file = TestBus.packageRoot.appendingPathComponent("sounds/chime/stereo/chime-critical.oga").path
        let descriptor = PortalTests.descriptor(of: file)
        defer { close(descriptor) }
        let recording = try pulse.record()
        let daemon = try #require(bus.daemon)
        daemon.drain()
        let before = daemon.stderrLines.count
        try PortalTests.add(frontend, app: "org.example.Clock", id: "ring", [
            ("title", .string("Alarm")), ("sound", .structure([.string("file-descriptor"), .variant(.unixFD(0))])),
        ], descriptors: [descriptor])
        #expect(daemon.line(onStderr: true, from: before, timeout: 15, matching: { $0.contains("sound finished") }) != nil, "\(daemon.stderr)")
        recording.grow(by: 0.3)
        #expect(try recording.stopAndMeasure() > 0.05)
        #expect(bus.logSays(".sound"), "played from chimed's copy")

        let quiet = try pulse.record()
        try PortalTests.add(frontend, app: "org.example.Clock", id: "quiet", [("title", .string("Silent")), ("sound", .string("silent"))])
        let client = try bus.client()
        #expect(client.waitUntil { (try? client.list())?.contains { $0["summary"]?.string == "Silent" } == true })
        quiet.grow(by: 1.0)
        #expect(try quiet.stopAndMeasure() < 0.01)
    }

    /// An app's `sound`, from the config or chimectl, plays over what the app asks; a file that
    /// is no sound is refused when set, and one that has changed since is not played.
    @Test func theSoundChosenForAnAppPlays() throws {
        let pulse = try PulseServer()
        let file = TestBus.packageRoot.appendingPathComponent("sounds/chime/stereo/chime-critical.oga").path
        let bus = try TestBus(config: Self.config + "\n[app Mail]\nsound = \(file)\n[app Late]\nsound = /nonexistent/late.oga\n", pulse: pulse)
        #expect(try peak(of: ["-a", "Late", "not there yet", "x"], bus: bus, pulse: pulse) > 0.05, "the level's sound")
        #expect(bus.logSays("sound: /nonexistent/late.oga: No such file or directory; the level's sound plays instead"), "\(bus.daemonLog)")
        #expect(try peak(of: ["-a", "Mail", "-h", "string:sound-name:message-new-email", "chosen file", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(bus.logSays("sound started: file \(file)"), "\(bus.daemonLog)")
        #expect(try bus.chimectl("apps", "set", "Mail", "sound=chime-time-sensitive").status == 0)
        #expect(try peak(of: ["-a", "Mail", "chosen event", "x"], bus: bus, pulse: pulse) > 0.05)
        #expect(bus.logSays("sound started: event chime-time-sensitive"))

        let text = bus.directory.appendingPathComponent("notes.oga").path
        _ = FileManager.default.createFile(atPath: text, contents: Data("just text".utf8))
        let refused = try bus.chimectl("apps", "set", "Mail", "sound=\(text)")
        #expect(refused.status == 1 && refused.stderr.contains("notes.oga is not a known audio type"), "\(refused)")
        let copy = bus.directory.appendingPathComponent("ding.oga").path
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        #expect(try bus.chimectl("apps", "set", "Mail", "sound=\(copy)").status == 0)
        #expect(unlink(copy) == 0 && mkfifo(copy, 0o600) == 0)
        #expect(try peak(of: ["-a", "Mail", "now a fifo", "x"], bus: bus, pulse: pulse) > 0.05, "the level's sound, and nothing blocks")
        #expect(bus.logSays("sound: \(copy)") && bus.logSays("the level's sound plays instead"), "\(bus.daemonLog)")
    }

    @Test func badSoundFilesFallBackToTheLevelsSound() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        let fifo = bus.directory.appendingPathComponent("fifo.oga").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let big = bus.directory.appendingPathComponent("big.oga").path
        _ = FileManager.default.createFile(atPath: big, contents: Data("OggS".utf8))
        #expect(truncate(big, 50 * 1024 * 1024) == 0)
        let text = bus.directory.appendingPathComponent("notes.oga").path
        _ = FileManager.default.createFile(atPath: text, contents: Data("just text".utf8))
        let daemon = try #require(bus.daemon)
        for path in [fifo, "/dev/zero", big, text, bus.directory.path + "/missing.oga", "sounds/x.oga", bus.directory.path + "/../x.oga"] {
            daemon.drain()
            let started = daemon.stderrLines.filter { $0.contains("sound started: event message-new-instant") }.count
            #expect(try bus.run("notify-send", ["-h", "string:sound-file:\(path)", path, "x"]).status == 0)
            #expect(daemon.line(onStderr: true, matching: { _ in
                daemon.stderrLines.filter { $0.contains("sound started: event message-new-instant") }.count > started
            }) != nil, "\(path)")
        }
        #expect(daemon.stderrLines.filter { $0.contains("sound-file:") && $0.contains("the level's sound plays instead") }.count == 7)
    }

    @Test func aBurstPlaysOneSound() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(pulse: pulse)
        let client = try bus.client()
        for index in 0..<20 { _ = try client.notify(app: "Chat", summary: "burst \(index)") }
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true) { $0.contains("sound finished") } != nil)
        daemon.drain()
        // After the one sound finished, the other 19 never started one.
        #expect(daemon.stderrLines.filter { $0.contains("sound started") }.count == 1)
    }

    @Test func aHungSoundServerNeverDelaysNotify() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        #expect(try peak(of: ["first", "x"], bus: bus, pulse: pulse) > 0.05)
        pulse.process.signal(SIGSTOP)
        defer { pulse.process.signal(SIGCONT) }
        let client = try bus.client()
        // libcanberra blocks for 30 s on a stopped server; each call here would time out after 10 s
        // if that happened in chimed.
        for index in 0..<10 { _ = try client.notify(app: "Chat", summary: "while hung \(index)") }
        #expect(try bus.chimectl("status").status == 0)
    }

    @Test func withoutASoundServerNotificationsStillArrive() throws {
        let bus = try TestBus()
        #expect(try bus.run("notify-send", ["no server", "x"]).status == 0)
        #expect(bus.daemon?.line(onStderr: true) { $0.contains("sound unavailable") } != nil)
        #expect(try bus.client().list().contains { $0["summary"]?.string == "no server" })
    }

    @Test func aRestartedSoundServerIsFoundAgain() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        #expect(try peak(of: ["before", "x"], bus: bus, pulse: pulse) > 0.05)
        try pulse.restart()
        #expect(try peak(of: ["after", "x"], bus: bus, pulse: pulse) > 0.05)
    }

    /// An audio attachment's play button (PlayAttachment) plays Chime's copy of the clip, even
    /// while muted; a picture has nothing to play.
    @Test func anAudioAttachmentPlaysOnRequest() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        let clip = bus.directory.appendingPathComponent("memo.wav").path
        #expect(try bus.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", clip, "synth", "0.5", "sine", "660"]).status == 0)
        let client = try bus.client()
        #expect(try bus.chimectl("mute", "on").status == 0)
        let id = try client.notify(app: "Recorder", summary: "Memo",
                                   hints: [("x-chime-attachments", .array(elementSignature: "a{sv}", [.vardict([("uri", .string(clip))])]))])
        try FileManager.default.removeItem(atPath: clip)
        let recording = try pulse.record()
        let daemon = try #require(bus.daemon)
        daemon.drain()
        let before = daemon.stderrLines.count
        _ = try client.control("PlayAttachment", [.uint32(id), .uint32(0)])
        #expect(daemon.line(onStderr: true, from: before, timeout: 15, matching: { $0.contains("sound finished") }) != nil, "\(daemon.stderr)")
        recording.grow(by: 0.3)
        #expect(try recording.stopAndMeasure() > 0.05)
        #expect(throws: BusError.self) { try client.control("PlayAttachment", [.uint32(id), .uint32(1)]) }
    }

    /// Sounds play in chime-sound, which leaves once they have played and none came for a second:
    /// chimed itself never loads the sound server's libraries, which no process can unload. One
    /// killed while it plays is replaced for the next sound; a package that left it out gets
    /// notifications without sound, and chimed says why.
    @Test func soundsPlayInAChildThatLeavesWhenQuiet() throws {
        let pulse = try PulseServer()
        let bus = try TestBus(config: Self.config, pulse: pulse)
        let daemon = try #require(bus.daemon)
        func soundChildren() -> [String] {
            let children = procFile(daemon.pid, "task/\(daemon.pid)/children") ?? ""
            return children.split(separator: " ").compactMap { pid_t($0).flatMap { procFile($0, "comm") } }
                .filter { $0.hasPrefix("chime-sound") }
        }
        // Three seconds of tone, so that it is still playing when looked at.
        let long = bus.directory.appendingPathComponent("long.wav").path
        #expect(try bus.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", long, "synth", "3", "sine", "440"]).status == 0)
        func startLongSound(_ summary: String) throws {
            daemon.drain()
            let before = daemon.stderrLines.count
            #expect(try bus.run("notify-send", ["-h", "string:sound-file:\(long)", summary, "x"]).status == 0)
            #expect(daemon.line(onStderr: true, from: before, timeout: 15) { $0.contains("sound started: file \(long)") } != nil)
        }
        try startLongSound("first")
        #expect(soundChildren().count == 1)
        let client = try bus.client()
        #expect(client.waitUntil(timeout: 15) { soundChildren().isEmpty }, "chime-sound stays")
        #expect(bus.logSays("sound finished: file \(long)"))
        let maps = try #require(procFile(daemon.pid, "maps"))
        #expect(!maps.contains("libpulse") && !maps.contains("libcanberra"), "chimed maps the sound libraries")
        #expect(try peak(of: ["again", "x"], bus: bus, pulse: pulse) > 0.05, "another plays the next sound")

        try startLongSound("killed")
        #expect(try bus.run("pkill", ["-KILL", "-P", "\(daemon.pid)", "-x", "chime-sound"]).status == 0)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("chime-sound crashed (signal 9)") } != nil)
        #expect(try peak(of: ["after the crash", "x"], bus: bus, pulse: pulse) > 0.05)

        let alone = bus.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try copyExecutable(TestBus.chimed, to: alone.appendingPathComponent("chimed").path)
        try bus.restartChimed(executable: alone.appendingPathComponent("chimed").path)
        let lonely = try #require(bus.daemon)
        #expect(try bus.run("notify-send", ["Still", "here"]).status == 0)
        #expect(lonely.line(onStderr: true, timeout: 10) { $0.contains("cannot start chime-sound") && $0.contains("no sounds") } != nil)
        #expect(try bus.chimectl("list").stdout.contains("Still"))
    }
}
