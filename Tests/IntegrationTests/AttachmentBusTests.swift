import ChimeCore
import ChimeDBus
import ChimeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// Files notifications carry, through the bus: checked, copied into Chime's store, shown by
/// chimectl, refused when broken, and deleted with their notifications.
@Suite struct AttachmentBusTests {
    /// A clip, a tone and a picture made by ffmpeg in the test's folder, and a JPEG cut short.
    static func makeSamples(in bus: TestBus) throws -> (audio: String, image: String, movie: String, broken: String) {
        let folder = bus.directory.appendingPathComponent("app-files")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let tone = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1"]
        let picture = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1"]
        for arguments in [tone + [path("tone.wav")], picture + ["-frames:v", "1", path("shot.png"), "-frames:v", "1", path("shot.jpg")],
                          picture + [path("clip.mp4")]] {
            let made = try bus.run("/usr/bin/ffmpeg", arguments)
            guard made.status == 0 else { throw TestFailure("ffmpeg failed: \(made.stderr)") }
        }
        try Data(contentsOf: URL(fileURLWithPath: path("shot.jpg"))).prefix(400).write(to: URL(fileURLWithPath: path("broken.jpg")))
        return (path("tone.wav"), path("shot.png"), path("clip.mp4"), path("broken.jpg"))
    }

    static func attachments(_ uris: [String]) -> (String, BusValue) {
        ("x-chime-attachments", .array(elementSignature: "a{sv}", uris.map { .vardict([("uri", .string($0))]) }))
    }

    static func stored(_ bus: TestBus, _ id: UInt32) throws -> [[String: BusValue]] {
        let shown = try bus.chimectl("show", "--json", String(id))
        guard shown.status == 0 else { throw TestFailure("chimectl show failed: \(shown.stderr)") }
        let entry = try bus.client().control("Show", [.uint32(id)]).first?.vardictEntries ?? [:]
        return entry["attachments"]?.records ?? []
    }

    var attachmentFolder: (TestBus) -> String = { $0.directory.appendingPathComponent("state/chime/attachments").path }

    @Test func oneOfEachKindIsKeptAfterTheAppDeletesItsFiles() throws {
        let bus = try TestBus()
        let files = try Self.makeSamples(in: bus)
        let client = try bus.client()
        let capabilities = try client.call("GetCapabilities", []).first?.strings ?? []
        #expect(capabilities.contains("x-kde-urls"))
        let id = try client.notify(app: "Camera", summary: "Three files",
                                   hints: [Self.attachments(["file://" + files.audio, files.image, "file://" + files.movie])])
        for file in [files.audio, files.image, files.movie] { try FileManager.default.removeItem(atPath: file) }
        let kept = try Self.stored(bus, id)
        #expect(kept.map { $0["kind"]?.string } == ["audio", "image", "movie"])
        #expect(kept.map { $0["name"]?.string } == ["tone.wav", "shot.png", "clip.mp4"])
        for attachment in kept {
            let path = attachment["path"]?.string ?? ""
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(path)")
            #expect(path.hasPrefix(attachmentFolder(bus) + "/Camera/"))
        }
        let text = try bus.chimectl("show", String(id)).stdout
        #expect(text.contains("shot.png: image, image/png"), "\(text)")
        let listed = try bus.chimectl("list", "--json").stdout
        #expect(listed.contains("\"attachments\""), "\(listed)")
    }

    /// An app that rewrites its picture in place (same file, same size) while Notify runs: what
    /// Chime keeps is what it checked, a whole PNG, never the other bytes, whichever it copied.
    @Test func aFileRewrittenWhileNotifyRunsIsKeptOnlyAsChecked() throws {
        let bus = try TestBus()
        let picture = try Self.makeSamples(in: bus).image
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: picture)))
        let head = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/bin/true")).prefix(png.count))
        let elf = head + [UInt8](repeating: 0, count: png.count - head.count)
        let file = open(picture, O_WRONLY)
        defer { close(file) }
        let stop = Atomic(false)
        let writer = Thread {
            var turn = false
            while !stop.load(ordering: .relaxed) {
                turn.toggle()
                _ = (turn ? elf : png).withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count, 0) }
            }
        }
        writer.start()
        let client = try bus.client()
        var kept: [UInt32] = []
        for index in 0..<80 {
            if let id = try? client.notify(app: "Camera", summary: "shot \(index)", hints: [Self.attachments([picture])]) { kept.append(id) }
        }
        stop.store(true, ordering: .relaxed)
        for id in kept {
            for attachment in try Self.stored(bus, id) {
                let path = try #require(attachment["path"]?.string)
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                #expect(bytes == png, "\(path), kept as \(attachment["type"]?.string ?? "?"), is not the PNG")
            }
        }
    }

    @Test func aBrokenFileRefusesTheNotificationAndNamesTheFile() throws {
        let bus = try TestBus()
        let files = try Self.makeSamples(in: bus)
        let client = try bus.client()
        do throws(BusError) {
            _ = try client.notify(summary: "Broken", hints: [Self.attachments([files.image, files.broken])])
            Issue.record("a cut JPEG was taken")
        } catch {
            #expect(error.name == "org.freedesktop.DBus.Error.InvalidArgs")
            #expect(error.message.contains(files.broken) && error.message.contains("damaged or cut short"), "\(error.message)")
        }
        #expect(try client.list().isEmpty)
        #expect(FolderContents.files(under: attachmentFolder(bus)).isEmpty, "the good file of a refused notification is not kept")
        // Through notify-send, as a script sends it: the error reaches the script.
        let sent = try bus.run("notify-send", ["-h", "string:x-chime-attachments:x", "Wrong", "type"])
        #expect(sent.status != 0 && sent.stderr.contains("aa{sv}"), "\(sent)")
    }

    @Test func kdeURLsKeepWhatTheyCanAndDropTheRest() throws {
        let bus = try TestBus()
        let files = try Self.makeSamples(in: bus)
        let client = try bus.client()
        let id = try client.notify(app: "spectacle", summary: "Screenshot saved",
                                   hints: [("x-kde-urls", .stringArray(["file://" + files.image, "file://" + files.broken, "https://example.com/x.png"]))])
        #expect(try Self.stored(bus, id).map { $0["name"]?.string } == ["shot.png"])
        #expect(bus.logSays("broken.jpg") && bus.logSays("not kept"))
    }

    @Test func theQuotaMakesRoomByDeletingTheOldest() throws {
        let bus = try TestBus()
        let files = try Self.makeSamples(in: bus)
        let size = try FileManager.default.attributesOfItem(atPath: files.audio)[.size] as? Int ?? 0
        try bus.writeConfig("[app Recorder]\nattachment-quota = \(size * 2)\n")
        try bus.restartChimed()
        let client = try bus.client()
        let ids = try (1...3).map { number throws(BusError) in
            try client.notify(app: "Recorder", summary: "Memo \(number)", hints: [Self.attachments([files.audio])])
        }
        let paths = try ids.map { try Self.stored(bus, $0).first?["path"]?.string ?? "" }
        #expect(access(paths[0], F_OK) != 0, "the oldest went")
        #expect(access(paths[1], F_OK) == 0 && access(paths[2], F_OK) == 0)
        #expect(try bus.chimectl("show", String(ids[0])).stdout.contains("over their quota"))
        #expect(try bus.chimectl("apps", "show", "Recorder").stdout.contains("attachment-quota = \(size * 2)"))
    }

    @Test func deletingTheNotificationDeletesItsFiles() throws {
        let bus = try TestBus()
        let files = try Self.makeSamples(in: bus)
        let client = try bus.client()
        let id = try client.notify(app: "Camera", summary: "Shot", hints: [Self.attachments([files.image])])
        let other = try client.notify(app: "Camera", summary: "Clip", hints: [Self.attachments([files.movie])])
        let path = try Self.stored(bus, id).first?["path"]?.string ?? ""
        #expect(access(path, F_OK) == 0)
        #expect(try bus.chimectl("delete", String(id)).status == 0)
        #expect(client.waitUntil { access(path, F_OK) != 0 }, "the file goes with its notification")
        #expect(try bus.chimectl("clear").status == 0)
        #expect(client.waitUntil { FolderContents.files(under: attachmentFolder(bus)).isEmpty }, "and clear takes every one")
        _ = other
    }

    /// Retention: a notification the center lets go of past `history-max` takes its files along.
    @Test func retentionDeletesTheFilesOfWhatItPrunes() throws {
        let bus = try TestBus(config: "[general]\nhistory-max = 1\n")
        let files = try Self.makeSamples(in: bus)
        let client = try bus.client()
        let first = try client.notify(app: "Camera", summary: "Old", hints: [Self.attachments([files.image])], timeout: 1)
        let path = try Self.stored(bus, first).first?["path"]?.string ?? ""
        _ = try client.notify(app: "Camera", summary: "New", hints: [Self.attachments([files.movie])], timeout: 1)
        #expect(client.waitUntil(timeout: 20) { access(path, F_OK) != 0 }, "pruned with its notification")
        #expect(FolderContents.files(under: attachmentFolder(bus)).count == 1, "the newest keeps its file")
    }

    /// A denied app's notification never enters the center, and its copies do not stay either.
    @Test func aDroppedNotificationLeavesNoFiles() throws {
        let bus = try TestBus()
        let files = try Self.makeSamples(in: bus)
        #expect(try bus.chimectl("apps", "set", "Spam", "authorization=denied").status == 0)
        let client = try bus.client()
        _ = try client.notify(app: "Spam", summary: "Buy", hints: [Self.attachments([files.image])])
        #expect(client.waitUntil { FolderContents.files(under: attachmentFolder(bus)).isEmpty })
    }

    /// kill -9 after the reply: the notification comes back with its files, and a copy no
    /// notification names (one a killed chimed made for a call it never answered) is swept.
    @Test func afterKillNineTheCenterKeepsItsFilesAndOrphansGo() throws {
        let bus = try TestBus()
        let files = try Self.makeSamples(in: bus)
        let client = try bus.client()
        let id = try client.notify(app: "Camera", summary: "Kept", hints: [Self.attachments([files.image])])
        let path = try Self.stored(bus, id).first?["path"]?.string ?? ""
        let orphan = (path as NSString).deletingLastPathComponent + "/1-1.png"
        try FileManager.default.copyItem(atPath: files.image, toPath: orphan)
        let daemon = try #require(bus.daemon)
        daemon.signal(SIGKILL)
        _ = daemon.wait(timeout: 10)
        try bus.startDaemon()
        #expect(access(path, F_OK) == 0, "the center's notification keeps its file")
        #expect(access(orphan, F_OK) != 0, "the orphan is swept at start")
        #expect(try Self.stored(bus, id).first?["path"]?.string == path)
    }
}

/// Regular files anywhere under a folder.
enum FolderContents {
    static func files(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }
}
