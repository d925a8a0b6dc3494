/// A file's bytes as the check reads them: its size and any stretch of it. The daemon reads a
/// descriptor (`pread`); tests read an array.
public protocol AttachmentBytes {
    var size: Int64 { get }
    /// Up to `count` bytes from `offset`; fewer at the end.
    func read(at offset: Int64, count: Int) -> [UInt8]
}

/// Whether a file may be attached: of a kind Chime keeps (by the type its content says, never
/// its name), within that kind's limit, and whole: a file whose own structure says it goes on
/// past its end (a download cut short, a copy interrupted) is refused as damaged.
public enum AttachmentCheck {
    /// The kind, or why not. `type` is the MIME type the content says; `isA` says whether it is
    /// (or is a subtype of) another.
    public static func check(type: String, isA: (String) -> Bool, bytes: some AttachmentBytes) -> Result<AttachmentKind, HintProblem> {
        guard let kind = AttachmentKind.of(type: type, isA: isA) else {
            return .failure(.init("its content is \(type), not an audio file (AIFF, WAV, MP3, MPEG-4 audio, Ogg), an image (JPEG, GIF, PNG) or a movie (MPEG, MPEG-2, MPEG-4, AVI, WebM)"))
        }
        guard bytes.size <= kind.maximumBytes else {
            return .failure(.init("it is \(ByteCount.text(bytes.size)), over the \(ByteCount.text(kind.maximumBytes)) limit for \(kind.named)"))
        }
        if let damage = damage(bytes) { return .failure(.init("it is damaged or cut short: \(damage)")) }
        return .success(kind)
    }

    /// What is wrong with the file's structure, for the formats whose structure says where they
    /// end; nil when it is whole or its format says nothing of its length (MP3, MPEG).
    static func damage(_ file: some AttachmentBytes) -> String? {
        let head = file.read(at: 0, count: 16)
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // A PNG ends with its IEND chunk: length 0, "IEND", its CRC.
            return file.read(at: file.size - 12, count: 12) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
                ? nil : "the PNG has no end chunk"
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            // A JPEG ends with its end-of-image marker; encoders may pad after it.
            return endsWith([0xFF, 0xD9], file, padding: 4096) ? nil : "the JPEG has no end-of-image marker"
        }
        if starts(Array("GIF8".utf8)) {
            return endsWith([0x3B], file, padding: 16) ? nil : "the GIF has no trailer"
        }
        if starts(Array("RIFF".utf8)) || starts(Array("FORM".utf8)) {
            // RIFF (WAV, AVI) counts its length little-endian, IFF (AIFF) big-endian; a length of 0
            // or all ones is a stream's, which did not know its length.
            let little = starts(Array("RIFF".utf8))
            let length = head.count >= 8 ? integer(head[4..<8], littleEndian: little) : 0
            guard length != 0, length != 0xFFFF_FFFF else { return nil }
            return 8 + length <= file.size ? nil : "its header says \(8 + length) bytes, the file has \(file.size)"
        }
        if starts(Array("ftyp".utf8), at: 4) { return isoMediaDamage(file) }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return matroskaDamage(file) }
        if starts(Array("OggS".utf8)) { return oggDamage(file) }
        return nil
    }

    private static func endsWith(_ marker: [UInt8], _ file: some AttachmentBytes, padding: Int) -> Bool {
        let tail = file.read(at: max(0, file.size - Int64(padding + marker.count)), count: padding + marker.count)
        guard tail.count >= marker.count else { return false }
        // The marker, followed by nothing but zeros: the last bytes that are not padding.
        guard let last = tail.lastIndex(where: { $0 != 0 }), last + 1 >= marker.count else { return false }
        return Array(tail[(last + 1 - marker.count)...last]) == marker
    }

    static func integer(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> Int64 {
        let ordered = littleEndian ? Array(bytes.reversed()) : Array(bytes)
        return ordered.reduce(0) { $0 << 8 | Int64($1) }
    }

    /// MPEG-4 (and QuickTime): top-level boxes, each with its length, must end where the file does.
    private static func isoMediaDamage(_ file: some AttachmentBytes) -> String? {
        var offset: Int64 = 0
        var boxes = 0
        while offset < file.size {
            let header = file.read(at: offset, count: 16)
            guard header.count >= 8 else { return "a box header is cut at byte \(offset)" }
            var length = integer(header[0..<4], littleEndian: false)
            if length == 1 {
                guard header.count >= 16 else { return "a box header is cut at byte \(offset)" }
                length = integer(header[8..<16], littleEndian: false)
            } else if length == 0 {
                return nil  // the last box runs to the end of the file
            }
            guard length >= 8 else { return "a box at byte \(offset) has a length of \(length)" }
            offset += length
            boxes += 1
            // A file of millions of tiny boxes is not a notification's movie: stop reading.
            if boxes > 10_000 { return nil }
        }
        return offset == file.size ? nil : "its last box ends at byte \(offset), the file has \(file.size)"
    }

    /// WebM: its segment's length (unless unknown, as a live recording writes it) must fit.
    private static func matroskaDamage(_ file: some AttachmentBytes) -> String? {
        let bytes = file.read(at: 0, count: 256)
        var offset = 4
        guard let header = vint(bytes, &offset) else { return "its EBML header is cut" }
        offset += Int(header.value)
        guard offset + 4 <= bytes.count, Array(bytes[offset..<offset + 4]) == [0x18, 0x53, 0x80, 0x67] else {
            return "it has no segment after its header"
        }
        offset += 4
        guard let segment = vint(bytes, &offset) else { return "its segment's length is cut" }
        if segment.unknown { return nil }
        let end = Int64(offset) + segment.value
        return end <= file.size ? nil : "its segment says \(end) bytes, the file has \(file.size)"
    }

    /// An EBML variable-length integer at `offset`, which moves past it.
    private static func vint(_ bytes: [UInt8], _ offset: inout Int) -> (value: Int64, unknown: Bool)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard offset + length <= bytes.count else { return nil }
        var value = Int64(bytes[offset] & (0xFF >> length))
        var allOnes = value == Int64(0xFF >> length)
        for byte in bytes[offset + 1..<offset + length] {
            value = value << 8 | Int64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        offset += length
        return (value, allOnes)
    }

    /// Ogg: its last page (found in the file's last 64 KB) must end where the file does.
    private static func oggDamage(_ file: some AttachmentBytes) -> String? {
        let window: Int64 = 65_536 + 27 + 255
        let start = max(0, file.size - window)
        let tail = file.read(at: start, count: Int(file.size - start))
        let capture = Array("OggS".utf8)
        var index = tail.count - 27
        while index >= 0 {
            if tail[index] == capture[0], Array(tail[index..<index + 4]) == capture, tail[index + 4] == 0 {
                let segments = Int(tail[index + 26])
                guard index + 27 + segments <= tail.count else { return "its last page is cut" }
                let body = tail[(index + 27)..<(index + 27 + segments)].reduce(0) { $0 + Int($1) }
                let end = start + Int64(index + 27 + segments + body)
                return end == file.size ? nil : "its last page ends at byte \(end), the file has \(file.size)"
            }
            index -= 1
        }
        return "no Ogg page in its last 64 KB"
    }
}
