/// Whether chime-sound (libcanberra) plays an audio file itself: Ogg Vorbis, and WAV of 8 or
/// 16-bit PCM, all its WAV reader takes (a 32-bit or float WAV would play as silence). The
/// desktop's player takes the rest.
public enum CanberraFormat {
    /// `type` is the MIME type the content says; `isA` says whether it is (a subtype of) another.
    public static func plays(type: String, isA: (String) -> Bool, bytes: some AttachmentBytes) -> Bool {
        if isA("audio/x-vorbis+ogg") { return true }
        return isA("audio/x-wav") && isPlainPCM(bytes)
    }

    /// The WAV's "fmt " chunk says PCM (format 1), at least one channel, 8 or 16 bits a sample.
    static func isPlainPCM(_ file: some AttachmentBytes) -> Bool {
        let head = file.read(at: 0, count: 12)
        guard head.count == 12, Array(head[0..<4]) == Array("RIFF".utf8), Array(head[8..<12]) == Array("WAVE".utf8) else { return false }
        var offset: Int64 = 12
        for _ in 0..<64 {
            let header = file.read(at: offset, count: 8)
            guard header.count == 8 else { return false }
            let size = AttachmentCheck.integer(header[4..<8], littleEndian: true)
            if Array(header[0..<4]) == Array("fmt ".utf8) {
                let format = file.read(at: offset + 8, count: 16)
                guard format.count == 16 else { return false }
                let (tag, channels, bits) = (AttachmentCheck.integer(format[0..<2], littleEndian: true),
                                             AttachmentCheck.integer(format[2..<4], littleEndian: true),
                                             AttachmentCheck.integer(format[14..<16], littleEndian: true))
                return tag == 1 && channels > 0 && (bits == 8 || bits == 16)
            }
            offset += 8 + size + (size & 1)  // chunks are padded to an even length
        }
        return false
    }
}
