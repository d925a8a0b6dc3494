import Foundation
import Glibc
import Testing
@testable import ChimeCore
@testable import ChimeDaemon

/// Real files of every kind, made by ffmpeg, ImageMagick and by hand, checked and copied as a
/// Notify's attachments are.
@Suite(.serialized) final class AttachmentFolderTests {
    /// Made once: ffmpeg takes a moment for each.
    static let samples: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-attachment-samples-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func run(_ tool: String, _ arguments: [String]) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.standardError = FileHandle.nullDevice
            try? process.run()
            process.waitUntilExit()
        }
        let tone = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1"]
        run("/usr/bin/ffmpeg", tone + ["a.wav", "a.aiff", "a.mp3", "a.ogg"])
        run("/usr/bin/ffmpeg", tone + ["-c:a", "aac", "a.m4a"])
        let picture = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=1"]
        run("/usr/bin/ffmpeg", picture + ["m.mp4", "m.webm", "m.avi"])
        run("/usr/bin/ffmpeg", picture + ["-c:v", "mpeg1video", "-r", "25", "m.mpg"])
        run("/usr/bin/ffmpeg", picture + ["-c:v", "mpeg2video", "-r", "25", "-f", "mpegts", "m.ts"])
        run("/usr/bin/ffmpeg", picture + ["-frames:v", "1", "i.png"])
        run("/usr/bin/ffmpeg", picture + ["-frames:v", "1", "i.jpg"])
        run("/usr/bin/ffmpeg", picture + ["anim.gif"])
        return folder
    }()

    static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

    let state: URL
    let folder: AttachmentFolder

    init() throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("chime-attachments-\(UUID().uuidString)")
        folder = AttachmentFolder(stateFolder: state.path)
    }

    deinit { try? FileManager.default.removeItem(at: state) }

    func keep(_ paths: [String], required: Bool = true, app: String = "org.example.App", sandboxed: Bool = false,
              quota: Int64 = AttachmentQuota.defaultBytes, problems: inout [String]) throws(RequestError) -> [ChimeCore.Attachment] {
        try folder.keep(paths.map { AttachmentRequest(path: $0, required: required) }, app: app, sandboxed: sandboxed,
                        quota: quota, wall: 1_000, problems: &problems)
    }

    func refusal(_ path: String) -> String? {
        var problems: [String] = []
        do throws(RequestError) {
            _ = try keep([path], problems: &problems)
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: [("a.wav", AttachmentKind.audio), ("a.aiff", .audio), ("a.mp3", .audio), ("a.ogg", .audio), ("a.m4a", .audio),
                      ("i.png", .image), ("i.jpg", .image), ("anim.gif", .image),
                      ("m.mp4", .movie), ("m.webm", .movie), ("m.avi", .movie), ("m.mpg", .movie), ("m.ts", .movie)])
    func everyTypeIsKeptAsAPrivateCopy(name: String, kind: AttachmentKind) throws {
        var problems: [String] = []
        let kept = try keep([Self.sample(name)], problems: &problems)
        #expect(kept.count == 1 && problems.isEmpty, "\(problems)")
        guard let attachment = kept.first else { return }
        #expect(attachment.kind == kind, "\(name) is \(attachment.type)")
        #expect(attachment.name == name)
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.sample(name)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: attachment.path)) == original)
        #expect(attachment.bytes == Int64(original.count))
        var info = stat()
        #expect(stat(attachment.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(state.path + "/attachments", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(attachment.path.hasPrefix(state.path + "/attachments/org.example.App/"))
    }

    /// The type comes from the bytes: a PNG named .mp3 is an image, and keeps an image's name.
    @Test func aPNGNamedMP3IsAnImage() throws {
        let disguised = state.appendingPathComponent("song.mp3").path
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.sample("i.png"), toPath: disguised)
        var problems: [String] = []
        let kept = try keep([disguised], problems: &problems)
        #expect(kept.first?.kind == .image && kept.first?.type == "image/png")
        #expect(kept.first?.path.hasSuffix(".png") == true)
    }

    @Test func aTruncatedJPEGIsRefusedAsDamaged() throws {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let cut = state.appendingPathComponent("cut.jpg")
        try Data(contentsOf: URL(fileURLWithPath: Self.sample("i.jpg"))).prefix(300).write(to: cut)
        #expect(refusal(cut.path)?.contains("damaged or cut short") == true, "\(refusal(cut.path) ?? "taken")")
        #expect(!folder.mayHaveFiles || FolderEntries.list(state.path + "/attachments/org.example.App").isEmpty)
    }

    /// Neither blocks: a FIFO nobody writes to, and a link to an endless device.
    @Test func aFIFOAndALinkToDevZeroAreNotRegularFiles() throws {
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let fifo = state.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(refusal(fifo)?.contains("not a regular file") == true)
        let link = state.appendingPathComponent("zero.png").path
        #expect(symlink("/dev/zero", link) == 0)
        #expect(refusal(link)?.contains("not a regular file") == true)
        #expect(refusal(state.appendingPathComponent("missing.png").path)?.contains("No such file") == true)
        #expect(refusal("/etc/hostname")?.contains("text/plain") == true)
    }

    /// One of Chime's own entries refuses the whole notification and leaves nothing stored;
    /// one of KDE's is dropped and said.
    @Test func aRequiredFailureKeepsNothingAndAnOptionalOneIsDropped() throws {
        var problems: [String] = []
        #expect(throws: RequestError.self) { try keep([Self.sample("i.png"), "/etc/hostname"], problems: &problems) }
        folder.sweep(keeping: [])
        #expect(FolderEntries.list(state.path + "/attachments").isEmpty)
        let kept = try keep([Self.sample("i.png"), "/etc/hostname"], required: false, problems: &problems)
        #expect(kept.count == 1 && problems.count == 1, "\(problems)")
    }

    @Test func theQuotaDeletesTheOldestCopiesAndTheSweepWhatNoOneNames() throws {
        var problems: [String] = []
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: Self.sample("a.wav"))).count)
        let first = try keep([Self.sample("a.wav")], quota: size * 2, problems: &problems)[0]
        let second = try keep([Self.sample("a.wav")], quota: size * 2, problems: &problems)[0]
        let third = try keep([Self.sample("a.wav")], quota: size * 2, problems: &problems)[0]
        #expect(access(first.path, F_OK) != 0, "the oldest made room")
        #expect(access(second.path, F_OK) == 0 && access(third.path, F_OK) == 0)
        #expect(throws: RequestError.self) { try keep([Self.sample("a.wav")], quota: size - 1, problems: &problems) }
        #expect(folder.sweep(keeping: [third.path]) == 1)
        #expect(access(third.path, F_OK) == 0 && folder.mayHaveFiles)
        #expect(folder.sweep(keeping: []) == 1)
        #expect(!folder.mayHaveFiles)
        #expect(FolderEntries.list(state.path + "/attachments").isEmpty, "the app's folder goes with its last file")
    }

    @Test func appFoldersAreSafeNames() {
        #expect(folder.appFolder("../../etc").hasSuffix("/attachments/_.._etc"))
        #expect(folder.appFolder("").hasSuffix("/attachments/_"))
        #expect(folder.appFolder("org.mozilla.firefox").hasSuffix("/attachments/org.mozilla.firefox"))
    }

    /// The store as a whole is bounded: an app that sends under many names fills at most the
    /// store's share, and then its own files make room, never another app's; a sandboxed app's
    /// folder is its own, whatever an unsandboxed program claims to be.
    @Test func theWholeStoreIsBoundedAndNoAppsFilesGoForAnothers() throws {
        let picture = Self.sample("i.png")
        let size = Int64(try FileManager.default.attributesOfItem(atPath: picture)[.size] as? Int ?? 0)
        let small = AttachmentFolder(stateFolder: state.path + "-small", storeBytes: 5 * size + size / 2)
        defer { try? FileManager.default.removeItem(atPath: state.path + "-small") }
        var problems: [String] = []
        var kept = 0
        for index in 0..<8 {
            if (try? small.keep([AttachmentRequest(path: picture, required: true)], app: "rotating\(index)", sandboxed: false,
                                quota: AttachmentQuota.defaultBytes, wall: 1_000, problems: &problems)) != nil { kept += 1 }
        }
        #expect(kept == 5, "five fit the store; the rest are refused: \(kept) kept")
        let stored = try FileManager.default.subpathsOfDirectory(atPath: small.root).filter { $0.hasSuffix(".png") }
        #expect(stored.count == 5, "nothing of the others' went: \(stored)")
        #expect(folder.appFolder("org.mozilla.firefox", sandboxed: true) != folder.appFolder("org.mozilla.firefox"))
        #expect(folder.appFolder("+org.mozilla.firefox") != folder.appFolder("org.mozilla.firefox", sandboxed: true))
    }
}
