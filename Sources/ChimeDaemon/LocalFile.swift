import CGLib
import ChimeCore
import Glibc

/// The one check for files that clients name (images, sounds): an absolute local path without
/// "..", opened without blocking so a FIFO or a device cannot stall the bus, a regular file,
/// within a size limit, whose first bytes say it is of the expected kind.
enum LocalFile {
    static func check(_ path: String, maximumBytes: Int, kind: String,
                      accepts: (ArraySlice<UInt8>) -> Bool) -> Result<String, HintProblem> {
        guard path.hasPrefix("/") else { return .failure(.init("\(path) is not an absolute path")) }
        if path.split(separator: "/").contains("..") {
            return .failure(.init("\(path) contains '..'"))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(.init("\(path): \(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.init("\(path) is not a regular file"))
        }
        guard info.st_size <= maximumBytes else {
            return .failure(.init("\(path) is \(info.st_size) bytes, over the \(maximumBytes)-byte limit"))
        }
        var head = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &head, head.count)
        guard count > 0, accepts(head[..<count]) else {
            return .failure(.init("\(path) is not a known \(kind) type"))
        }
        return .success(path)
    }

    /// The local path a `file://` URI names (GLib's reading of it: escapes, host); nil for one
    /// that names none.
    static func path(fromURI uri: String) -> String? {
        guard let path = g_filename_from_uri(uri, nil, nil) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
}

/// `sound-file`: Ogg, WAV, FLAC or MP3, at most 5 MB (chimed(1)'s sound section), named by a
/// path or a `file://` URI.
enum SoundFile {
    static let maximumBytes = 5 * 1024 * 1024

    /// The path to play, from a path or a `file://` URI (python desktop-notifier sends one).
    static func check(_ reference: String) -> Result<String, HintProblem> {
        var path = reference
        if reference.hasPrefix("file://") {
            guard let local = LocalFile.path(fromURI: reference) else { return .failure(.init("\(reference) is not a valid file URI")) }
            path = local
        }
        return LocalFile.check(path, maximumBytes: maximumBytes, kind: "audio") { isAudio(Array($0)) }
    }

    static func isAudio(_ bytes: [UInt8]) -> Bool {
        func starts(_ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        if starts("OggS") || starts("fLaC") || starts("ID3") { return true }
        if starts("RIFF"), bytes.count >= 12, Array(bytes[8..<12]) == Array("WAVE".utf8) { return true }
        // An MP3 frame without an ID3 tag starts with 11 set sync bits.
        return bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0
    }
}
