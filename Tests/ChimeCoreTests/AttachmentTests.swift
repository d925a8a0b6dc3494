import Testing
@testable import ChimeCore

/// A file of `size` bytes whose first bytes are `head` and last bytes `tail`, zeros between.
private struct SyntheticFile: AttachmentBytes {
    var size: Int64
    var head: [UInt8]
    var tail: [UInt8] = []

    func read(at offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, offset < size else { return [] }
        let end = min(size, offset + Int64(count))
        return (offset..<end).map { position in
            if position < Int64(head.count) { return head[Int(position)] }
            let fromTail = position - (size - Int64(tail.count))
            return fromTail >= 0 ? tail[Int(fromTail)] : 0
        }
    }
}

private struct WholeFile: AttachmentBytes {
    var bytes: [UInt8]
    var size: Int64 { Int64(bytes.count) }
    func read(at offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, offset < size else { return [] }
        return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
    }
}

@Suite struct AttachmentTests {
    static let pngHead: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
    static let mp3Head: [UInt8] = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 0]
    static let mpegHead: [UInt8] = [0, 0, 1, 0xBA]

    static func check(_ type: String, _ file: some AttachmentBytes) -> Result<AttachmentKind, HintProblem> {
        AttachmentCheck.check(type: type, isA: { $0 == type }, bytes: file)
    }

    /// Each kind at its limit is taken, one byte over is refused, and the refusal says the limit.
    @Test(arguments: [("audio/mpeg", AttachmentKind.audio, mp3Head, [UInt8]()), ("image/png", .image, pngHead, pngEnd),
                      ("video/mpeg", .movie, mpegHead, [])])
    func eachKindIsTakenUpToItsLimit(type: String, kind: AttachmentKind, head: [UInt8], tail: [UInt8]) {
        let limit = kind.maximumBytes
        #expect(Self.check(type, SyntheticFile(size: 1000, head: head, tail: tail)) == .success(kind))
        #expect(Self.check(type, SyntheticFile(size: limit, head: head, tail: tail)) == .success(kind))
        guard case .failure(let problem) = Self.check(type, SyntheticFile(size: limit + 1, head: head, tail: tail)) else {
            Issue.record("\(type) over its limit was taken")
            return
        }
        #expect(problem.description.contains("over the \(ByteCount.text(limit)) limit for \(kind.named)"), "\(problem)")
    }

    @Test func theLimitsAreApplesFiveTenAndFiftyMegabytes() {
        #expect(AttachmentKind.audio.maximumBytes == 5 << 20)
        #expect(AttachmentKind.image.maximumBytes == 10 << 20)
        #expect(AttachmentKind.movie.maximumBytes == 50 << 20)
    }

    /// Subtypes count (Ogg Vorbis is an Ogg audio file); a type of no kind is refused by name.
    @Test func theKindComesFromTheTypeAndItsParents() {
        let parents = ["audio/x-vorbis+ogg": ["audio/ogg"], "image/png": [], "application/pdf": []]
        func kind(_ type: String) -> AttachmentKind? {
            AttachmentKind.of(type: type) { $0 == type || parents[type, default: []].contains($0) }
        }
        #expect(kind("audio/x-vorbis+ogg") == .audio)
        #expect(kind("image/png") == .image)
        #expect(kind("application/pdf") == nil)
        guard case .failure(let problem) = Self.check("application/pdf", SyntheticFile(size: 10, head: [])) else {
            Issue.record("a PDF was taken")
            return
        }
        #expect(problem.description.contains("application/pdf"))
        #expect(AttachmentKind.fileExtension(type: "audio/x-vorbis+ogg") { ["audio/ogg", "audio/x-vorbis+ogg"].contains($0) } == "ogg")
    }

    /// Files cut short are refused: their own structure says they go on.
    @Test func truncatedFilesAreDamaged() {
        let png = Self.pngHead + [0, 0, 0, 13] + Array("IHDR".utf8) + [UInt8](repeating: 1, count: 17) + Self.pngEnd
        #expect(AttachmentCheck.damage(WholeFile(bytes: png)) == nil)
        #expect(AttachmentCheck.damage(WholeFile(bytes: Array(png.dropLast(5)))) != nil)

        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 100) + [0xFF, 0xD9]
        #expect(AttachmentCheck.damage(WholeFile(bytes: jpeg)) == nil)
        #expect(AttachmentCheck.damage(WholeFile(bytes: jpeg + [0, 0, 0])) == nil, "zeros after the end are padding")
        #expect(AttachmentCheck.damage(WholeFile(bytes: Array(jpeg.dropLast(2)))) != nil)

        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 1, count: 30) + [0x3B]
        #expect(AttachmentCheck.damage(WholeFile(bytes: gif)) == nil)
        #expect(AttachmentCheck.damage(WholeFile(bytes: Array(gif.dropLast()))) != nil)

        // RIFF counts the bytes after its first eight, little-endian.
        let wav = Array("RIFF".utf8) + [32, 0, 0, 0] + Array("WAVE".utf8) + [UInt8](repeating: 0, count: 28)
        #expect(AttachmentCheck.damage(WholeFile(bytes: wav)) == nil)
        #expect(AttachmentCheck.damage(WholeFile(bytes: Array(wav.dropLast(4)))) != nil)
        let stream = Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("WAVE".utf8)
        #expect(AttachmentCheck.damage(WholeFile(bytes: stream)) == nil, "a stream that did not know its length")

        // MPEG-4: boxes end where the file does.
        func box(_ name: String, _ body: Int) -> [UInt8] {
            let length = UInt32(8 + body)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + Array(name.utf8) + [UInt8](repeating: 0, count: body)
        }
        let mp4 = box("ftyp", 12) + box("moov", 40) + box("mdat", 200)
        #expect(AttachmentCheck.damage(WholeFile(bytes: mp4)) == nil)
        #expect(AttachmentCheck.damage(WholeFile(bytes: Array(mp4.dropLast(50)))) != nil)

        // Ogg: the last page ends where the file does.
        func page(_ body: Int) -> [UInt8] {
            Array("OggS".utf8) + [0] + [UInt8](repeating: 0, count: 21) + [1, UInt8(body)] + [UInt8](repeating: 9, count: body)
        }
        let ogg = page(100) + page(50)
        #expect(AttachmentCheck.damage(WholeFile(bytes: ogg)) == nil)
        #expect(AttachmentCheck.damage(WholeFile(bytes: Array(ogg.dropLast(10)))) != nil)

        // WebM: the segment's length fits (or is unknown).
        let header: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x84, 0x42, 0x86, 0x81, 0x01]
        let webm = header + [0x18, 0x53, 0x80, 0x67, 0x90] + [UInt8](repeating: 0, count: 16)
        #expect(AttachmentCheck.damage(WholeFile(bytes: webm)) == nil)
        #expect(AttachmentCheck.damage(WholeFile(bytes: Array(webm.dropLast(3)))) != nil)
        let live = header + [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [1, 2]
        #expect(AttachmentCheck.damage(WholeFile(bytes: live)) == nil)
    }

    @Test func chimesHintIsDecodedAndItsMistakesAreKept() {
        var problems: [String] = []
        let entry: (String, [(String, BusValue)]) -> BusValue = { _, pairs in .vardict(pairs) }
        let hints = NotificationHints(decoding: ["x-chime-attachments": .array(elementSignature: "a{sv}", [
            entry("ok", [("uri", .string("file:///tmp/a%20b.png")),
                         ("thumbnail-clip", .array(elementSignature: "d", [.double(0.1), .double(0.2), .double(0.5), .double(0.5)]))]),
            entry("time", [("uri", .string("/tmp/clip.mp4")), ("thumbnail-time", .double(2.5))]),
            entry("web", [("uri", .string("https://example.com/a.png"))]),
            entry("clip", [("uri", .string("/tmp/x.png")), ("thumbnail-clip", .array(elementSignature: "d", [.double(0.8), .double(0), .double(0.5), .double(1)]))]),
            entry("none", [("thumbnail-time", .double(1))]),
        ])], problems: &problems)
        let requests = hints.attachmentRequests
        #expect(requests.count == 5)
        #expect(requests[0].path == "/tmp/a b.png" && requests[0].clip?.numbers == [0.1, 0.2, 0.5, 0.5] && requests[0].problem == nil)
        #expect(requests[1].path == "/tmp/clip.mp4" && requests[1].time == 2.5)
        #expect(requests.allSatisfy { $0.required })
        #expect(requests[2].problem?.contains("not a local file") == true)
        #expect(requests[3].problem?.contains("thumbnail-clip") == true, "a clip past the right edge")
        #expect(requests[4].problem?.contains("no 'uri'") == true)
        var wrong: [String] = []
        let mistyped = NotificationHints(decoding: ["x-chime-attachments": .stringArray(["/tmp/a.png"])], problems: &wrong)
        #expect(mistyped.attachmentRequests.first?.problem?.contains("aa{sv}") == true, "a mistyped hint still refuses")
    }

    @Test func kdeURLsKeepLocalFilesAndSayWhatTheyDrop() {
        var problems: [String] = []
        let hints = NotificationHints(decoding: ["x-kde-urls": .stringArray(["file:///home/me/shot.png", "https://example.com/", "/tmp/../etc/passwd"])],
                                      problems: &problems)
        #expect(hints.attachmentRequests == [AttachmentRequest(path: "/home/me/shot.png", required: false)])
        #expect(problems.count == 2, "\(problems)")
    }

    @Test func theQuotaEvictsTheOldestFirst() {
        let stored = [AttachmentQuota.Stored(path: "new", bytes: 40, stored: 3), .init(path: "old", bytes: 40, stored: 1),
                      .init(path: "mid", bytes: 40, stored: 2)]
        #expect(AttachmentQuota.evictions(from: stored, adding: 10, quota: 200) == [])
        #expect(AttachmentQuota.evictions(from: stored, adding: 50, quota: 150) == ["old"])
        #expect(AttachmentQuota.evictions(from: stored, adding: 100, quota: 150) == ["old", "mid"])
        #expect(AttachmentQuota.evictions(from: stored, adding: 151, quota: 150) == nil, "one file over the quota alone")
    }

    @Test func anAttachmentRoundTripsThroughTheCenterAndTheControlInterface() throws {
        let attachment = Attachment(path: "/s/attachments/app/1-1.png", type: "image/png", kind: .image, bytes: 579,
                                    name: "shot.png", clip: Attachment.Clip([0, 0, 0.5, 0.25]), time: nil)
        #expect(Attachment(storedLine: attachment.storedLine) == attachment)
        #expect(Attachment.attachments(fromRecords: Attachment.records([attachment])) == [attachment])
        let movie = Attachment(path: "/m.mp4", type: "video/mp4", kind: .movie, bytes: 9, name: "m.mp4", time: 1.5)
        #expect(Attachment(storedLine: movie.storedLine) == movie)
        #expect(Attachment.displayName(ofPath: "/tmp/a\u{1E}b\n.png") == "a?b?.png")
    }

    /// A WAV's header as sox writes it: `fmt ` after any other chunk (`LIST`), padded to even.
    static func wav(format: UInt16, bits: UInt16, chunkBefore: Bool = false) -> [UInt8] {
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xff) } }
        let list = chunkBefore ? Array("LIST".utf8) + le(3, 4) + [1, 2, 3, 0] : []
        let fmt = Array("fmt ".utf8) + le(16, 4) + le(Int(format), 2) + le(1, 2) + le(44_100, 4) + le(44_100 * Int(bits) / 8, 4)
            + le(Int(bits) / 8, 2) + le(Int(bits), 2)
        let data = Array("data".utf8) + le(4, 4) + [0, 0, 0, 0]
        let body = Array("WAVE".utf8) + list + fmt + data
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    /// libcanberra's WAV reader takes 8 and 16-bit PCM only: the rest goes to the desktop's player.
    @Test func chimeSoundPlaysOggAndEightOrSixteenBitWAVs() {
        func plays(_ type: String, _ bytes: [UInt8]) -> Bool {
            CanberraFormat.plays(type: type, isA: { $0 == type }, bytes: WholeFile(bytes: bytes))
        }
        #expect(plays("audio/x-wav", Self.wav(format: 1, bits: 16)))
        #expect(plays("audio/x-wav", Self.wav(format: 1, bits: 8, chunkBefore: true)))
        #expect(!plays("audio/x-wav", Self.wav(format: 1, bits: 32)), "32-bit PCM")
        #expect(!plays("audio/x-wav", Self.wav(format: 3, bits: 32)), "float")
        #expect(!plays("audio/x-wav", Array(Self.wav(format: 1, bits: 16).prefix(30))), "cut in its fmt chunk")
        #expect(!plays("audio/x-wav", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8)), "no fmt chunk")
        #expect(plays("audio/x-vorbis+ogg", Array("OggS".utf8)))
        #expect(!plays("audio/mpeg", Self.mp3Head))
    }

    @Test func sizesReadAsPeopleWriteThem() {
        #expect(ByteCount.parse("100MB") == 100 << 20)
        #expect(ByteCount.parse("512 k") == 512 << 10)
        #expect(ByteCount.parse("1G") == 1 << 30)
        #expect(ByteCount.parse("1000") == 1000)
        #expect(ByteCount.parse("lots") == nil && ByteCount.parse("-5MB") == nil)
        #expect(ByteCount.exactText(100 << 20) == "100MB" && ByteCount.exactText(1500) == "1500")
        var settings = AppSettings()
        #expect(settings.set("attachment-quota", to: "20MB") == nil && settings.attachmentBytes == 20 << 20)
        #expect(settings.set("attachment-quota", to: "much") != nil)
        #expect(settings.set("attachment-quota", to: "default") == nil && settings.attachmentBytes == AttachmentQuota.defaultBytes)
    }
}
