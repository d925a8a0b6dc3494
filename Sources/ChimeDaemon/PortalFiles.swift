import CGLib
import ChimeConfig
import ChimeCore
import ChimeGLib
import Glibc

/// Icons and sounds the notification portal passes as descriptors (sealed memfds) or bytes:
/// read without blocking, checked as a client's file is (`LocalFile`: a regular file, within the
/// size limit, of a known type by its first bytes), and kept as a file of chimed's own, so the
/// rest of Chime (presenters, chime-sound, the center) reads a path as for any app.
struct PortalFiles {
    /// `$XDG_RUNTIME_DIR/chime/portal` (0700): gone at logout, as the apps' notifications are.
    /// Without XDG_RUNTIME_DIR, `$XDG_CACHE_HOME/chime/portal`: never a folder of a name others
    /// can guess in a folder they can write (/tmp).
    let folder: String
    /// Files kept, and their bytes together; past either the oldest go (each a notification's
    /// icon or sound, at most 10 MB).
    static let limit = 256
    static let limitBytes: Int64 = 64 * 1024 * 1024

    init(environment: [String: String]) {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/chime" : nil }
        folder = (runtime ?? chimeFolder("XDG_CACHE_HOME", fallback: ".cache", environment: environment)) + "/portal"
    }

    /// An icon's bytes (PNG, JPEG, SVG and the other types banners load), as a file.
    func image(_ bytes: [UInt8]) -> Result<String, HintProblem> {
        guard bytes.count <= ImageReference.maximumFileBytes else {
            return .failure(.init("the icon is \(bytes.count) bytes, over the \(ImageReference.maximumFileBytes)-byte limit"))
        }
        guard ImageType(magic: bytes.prefix(512)) != nil else { return .failure(.init("the icon is not an image type Chime loads")) }
        return keep(bytes, suffix: "image")
    }

    /// A sound's bytes (Ogg, WAV, FLAC, MP3), as a file.
    func sound(_ bytes: [UInt8]) -> Result<String, HintProblem> {
        guard bytes.count <= SoundFile.maximumBytes else {
            return .failure(.init("the sound is \(bytes.count) bytes, over the \(SoundFile.maximumBytes)-byte limit"))
        }
        guard SoundFile.isAudio(bytes) else { return .failure(.init("the sound is not Ogg, WAV, FLAC or MP3")) }
        return keep(bytes, suffix: "sound")
    }

    /// What a descriptor holds, at most `limit` bytes: only a regular file (a memfd is one), read
    /// from its start with pread, so a pipe or a socket cannot stall chimed.
    static func read(_ descriptor: Int32, limit: Int) -> Result<[UInt8], HintProblem> {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.init("the descriptor is not a file (a sealed memfd is expected)"))
        }
        guard info.st_size <= limit else { return .failure(.init("the file is \(info.st_size) bytes, over the \(limit)-byte limit")) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            guard count > 0 else { break }
            done += count
        }
        return .success(Array(bytes.prefix(done)))
    }

    /// Writes `bytes` under a name made of their checksum (the same icon again is the same
    /// file), mode 0600, and lets the oldest go past `limit`.
    private func keep(_ bytes: [UInt8], suffix: String) -> Result<String, HintProblem> {
        guard StateFolder.secure(folder) else {
            return .failure(.init("\(folder) is not a folder of this user's own; chimed keeps no file there"))
        }
        let name = bytes.withUnsafeBufferPointer { buffer -> String in
            guard let sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, buffer.baseAddress, gsize(buffer.count)) else { return "file" }
            defer { g_free(sum) }
            return String(cString: sum)
        }
        let path = "\(folder)/\(name).\(suffix)"
        if access(path, R_OK) == 0 { return .success(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return .failure(.init("cannot write \(path): \(String(cString: strerror(errno)))")) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else {
            unlink(path)
            return .failure(.init("cannot write \(path) (a full disk?)"))
        }
        trim()
        return .success(path)
    }

    /// A name `keep` gives: 64 hexadecimal digits (SHA-256), then `.image` or `.sound`.
    static func isKept(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && ["image", "sound"].contains(parts[1]) && parts[0].count == 64
            && parts[0].allSatisfy { $0.isHexDigit }
    }

    /// The oldest files past `limit` or `limitBytes`, by when they were written (the one just
    /// written stays): only files chimed made there (regular, the user's, named by their
    /// checksum), never anything else the folder holds.
    private func trim() {
        let files = FolderEntries.list(folder).filter { file in
            file.isFile && file.info.st_uid == getuid() && Self.isKept(file.name)
        }
        var (count, bytes) = (files.count, files.reduce(Int64(0)) { $0 + Int64($1.info.st_size) })
        let newestFirst = files.sorted { ($0.info.st_mtim.tv_sec, $0.info.st_mtim.tv_nsec) > ($1.info.st_mtim.tv_sec, $1.info.st_mtim.tv_nsec) }
        for file in newestFirst.dropFirst().reversed() where count > Self.limit || bytes > Self.limitBytes {
            unlink(file.path)
            (count, bytes) = (count - 1, bytes - Int64(file.info.st_size))
        }
    }
}
