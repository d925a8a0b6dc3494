import CGLib
import ChimeCore
import ChimeGLib
import CShims
import Glibc

/// `$XDG_STATE_HOME/chime/attachments` (0700): Chime's own copies of the files notifications
/// carry, a folder for each app, each file 0600, so an app may delete its file once Notify
/// returned. What no notification names any more goes at the next sweep (`sweep`).
final class AttachmentFolder {
    let root: String
    /// Tells apart files stored in the same millisecond.
    private var sequence = 0

    /// What every app's files may take together (`AttachmentQuota.storeBytes`).
    let storeBytes: Int64

    init(stateFolder: String, storeBytes: Int64 = AttachmentQuota.storeBytes) {
        root = stateFolder + "/attachments"
        self.storeBytes = storeBytes
        mayHaveFiles = FolderEntries.list(root).contains { folder in folder.isFolder && !FolderEntries.list(folder.path).isEmpty }
    }

    /// Copies the files `requests` name into `app`'s folder and keeps the copies that pass the
    /// check, within `quota` (the app's oldest files go to make room). The check reads the copy,
    /// never the app's file, which the app may rewrite meanwhile. One of Chime's own hint that
    /// cannot be kept refuses the notification, and nothing of it is kept; one of KDE's is
    /// dropped and said in `problems`.
    /// `sandboxed`: the app is named by its sandbox, and its folder is one no other app's claim
    /// can name.
    func keep(_ requests: [AttachmentRequest], app: String, sandboxed: Bool, quota: Int64, wall: Int64,
              problems: inout [String]) throws(RequestError) -> [Attachment] {
        guard !requests.isEmpty else { return [] }
        let folder = appFolder(app, sandboxed: sandboxed)
        var kept: [Attachment] = []
        for request in requests {
            switch keep(request, in: folder, quota: quota, wall: wall) {
            case .success(let attachment): kept.append(attachment)
            case .failure(let problem) where request.required:
                for attachment in kept { unlink(attachment.path) }
                throw .invalidArgument("\(HintName.attachments.text): \(request.path.isEmpty ? "" : request.path + ": ")\(problem)")
            case .failure(let problem):
                problems.append("hint 'x-kde-urls': \(request.path): \(problem); not kept")
            }
        }
        return kept
    }

    /// Deletes every stored file not in `kept` (the paths the center and the open notifications
    /// name), and the folders left empty. Returns how many files went.
    @discardableResult
    func sweep(keeping kept: Set<String>) -> Int {
        var removed = 0
        var left = false
        for folder in FolderEntries.list(root) where folder.isFolder {
            let files = FolderEntries.list(folder.path)
            let before = removed
            for file in files where !kept.contains(file.path) {
                if unlink(file.path) == 0 { removed += 1 }
            }
            if files.count > removed - before { left = true }
            rmdir(folder.path)  // only when empty
        }
        mayHaveFiles = left
        return removed
    }

    /// Whether a file may be stored: one was there at start, or one was kept since the last
    /// sweep that left none. Without files nothing needs sweeping (nor the center asked what it names).
    private(set) var mayHaveFiles: Bool

    /// The app's folder: its name kept to letters, digits, '.', '-' and '_', and for a sandboxed
    /// app begun with '+', which no name an app claims keeps.
    func appFolder(_ app: String, sandboxed: Bool = false) -> String {
        let safe = app.unicodeScalars.prefix(64).map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let name = String(safe).drop { $0 == "." }
        return root + "/" + (sandboxed ? "+" : "") + (name.isEmpty ? "_" : String(name))
    }

    // MARK: Copying, then checking

    /// The largest file of any kind: a longer one is not copied at all.
    private static let largest = AttachmentKind.allCases.map(\.maximumBytes).max() ?? 0

    /// One file: opened without blocking (a FIFO or a device cannot stall chimed; fstat then says
    /// what it is), copied under a name of its own, the copy checked by its bytes, then named as
    /// kept files are, once the app's older files made room for it.
    private func keep(_ request: AttachmentRequest, in folder: String, quota: Int64, wall: Int64) -> Result<Attachment, HintProblem> {
        if let problem = request.problem { return .failure(.init(problem)) }
        let source = open(request.path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard source >= 0 else { return .failure(.init(String(cString: strerror(errno)))) }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(.init("not a regular file")) }
        let size = Int64(info.st_size)
        guard size <= Self.largest else {
            return .failure(.init("it is \(ByteCount.text(size)), over the \(ByteCount.text(Self.largest)) limit of any file"))
        }
        // Only what is missing, private; the copies are made 0600.
        g_mkdir_with_parents(folder, 0o700)
        mayHaveFiles = true
        sequence += 1
        let incoming = "\(folder)/\(wall)-\(sequence).incoming"
        let copy = open(incoming, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard copy >= 0 else { return .failure(.init("cannot create \(incoming): \(String(cString: strerror(errno)))")) }
        defer { close(copy) }
        if let problem = Self.steadyCopy(from: source, to: copy, count: size) {
            unlink(incoming)
            return .failure(.init(problem))
        }
        let bytes = DescriptorBytes(descriptor: copy, size: size)
        let type = ContentTypes.type(of: bytes.read(at: 0, count: 4096))
        let isA = { (other: String) in ContentTypes.type(type, isA: other) }
        let kind: AttachmentKind
        switch AttachmentCheck.check(type: type, isA: isA, bytes: bytes) {
        case .success(let checked): kind = checked
        case .failure(let problem):
            unlink(incoming)
            return .failure(problem)
        }
        let stored = storedFiles(in: folder).filter { $0.path != incoming }
        // Within its quota, and within what the other apps' files leave of the store's.
        let others = otherAppsBytes(besides: folder)
        let room = min(quota, storeBytes - others)
        guard let evicted = AttachmentQuota.evictions(from: stored, adding: size, quota: room) else {
            unlink(incoming)
            return .failure(.init(room < quota
                ? "the attachment store holds \(ByteCount.text(others)) of other apps' files, of its \(ByteCount.text(storeBytes)); \(ByteCount.text(size)) more do not fit"
                : "it is \(size) bytes, over the app's attachment quota of \(quota)"))
        }
        for path in evicted {
            unlink(path)
            Log.info("\(path) deleted: its app's attachments were over its quota of \(quota) bytes")
        }
        let path = "\(folder)/\(wall)-\(sequence).\(AttachmentKind.fileExtension(type: type, isA: isA))"
        guard rename(incoming, path) == 0 else {
            unlink(incoming)
            return .failure(.init("cannot keep it in \(folder): \(String(cString: strerror(errno)))"))
        }
        return .success(Attachment(path: path, type: type, kind: kind, bytes: size, name: Attachment.displayName(ofPath: request.path),
                                   clip: request.clip, time: request.time))
    }

    /// What every other app's folder holds, in bytes.
    private func otherAppsBytes(besides folder: String) -> Int64 {
        FolderEntries.list(root).filter { $0.isFolder && $0.path != folder }.reduce(0) { total, other in
            total + FolderEntries.list(other.path).filter(\.isFile).reduce(0) { $0 + Int64($1.info.st_size) }
        }
    }

    /// The app's files, in the order they were stored: their names are the wall clock's
    /// milliseconds and a sequence number (`1733363000000-2.png`).
    private func storedFiles(in folder: String) -> [AttachmentQuota.Stored] {
        FolderEntries.list(folder).filter(\.isFile).map { entry in
            let parts = entry.name.split(whereSeparator: { $0 == "-" || $0 == "." }).prefix(2).map { Int64($0) ?? 0 }
            let order = (parts.first ?? 0) << 20 | (parts.count > 1 ? parts[1] & 0xFFFFF : 0)
            return AttachmentQuota.Stored(path: entry.path, bytes: Int64(entry.info.st_size), stored: order)
        }
    }

    /// A copy of a file that held still while it was copied: read back against the file, and
    /// made again (three tries) when an app rewrote it meanwhile, so what is checked and kept is
    /// the file as it was at one moment, not a mix of two versions.
    private static func steadyCopy(from source: Int32, to target: Int32, count: Int64) -> String? {
        for _ in 0..<3 {
            if let problem = copyBytes(from: source, to: target, count: count) { return "cannot copy it: \(problem)" }
            if same(source, target, count: count) { return nil }
            guard ftruncate(target, 0) == 0 else { return "cannot copy it: \(String(cString: strerror(errno)))" }
        }
        return "it changed while it was copied, three times; send it once it is written"
    }

    /// Whether the first `count` bytes of both files are the same.
    private static func same(_ one: Int32, _ other: Int32, count: Int64) -> Bool {
        let chunk = 64 * 1024
        var left = [UInt8](repeating: 0, count: chunk), right = [UInt8](repeating: 0, count: chunk)
        var offset: Int64 = 0
        while offset < count {
            let want = Int(min(Int64(chunk), count - offset))
            guard pread(one, &left, want, off_t(offset)) == want, pread(other, &right, want, off_t(offset)) == want,
                  left.prefix(want) == right.prefix(want) else { return false }
            offset += Int64(want)
        }
        return true
    }

    /// The first `count` bytes of `source` into `target`: shared blocks where the filesystem
    /// can (a reflink costs no space), else copied in the kernel, else read and written.
    private static func copyBytes(from source: Int32, to target: Int32, count: Int64) -> String? {
        if count == 0 || chime_clone_file(target, source) == 0 {
            // A clone takes the whole file: cut it to what was checked.
            return ftruncate(target, off_t(count)) == 0 ? nil : String(cString: strerror(errno))
        }
        var sourceOffset: Int64 = 0
        var targetOffset: Int64 = 0
        while sourceOffset < count {
            let copied = chime_copy_file_range(source, &sourceOffset, target, &targetOffset, UInt(count - sourceOffset))
            if copied > 0 { continue }
            if copied == 0 { return "the file became shorter while it was copied" }
            guard errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP else {
                return String(cString: strerror(errno))
            }
            return readAndWrite(from: source, to: target, at: sourceOffset, count: count)
        }
        return nil
    }

    private static func readAndWrite(from source: Int32, to target: Int32, at start: Int64, count: Int64) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var offset = start
        while offset < count {
            let read = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, min($0.count, Int(count - offset)), off_t(offset)) }
            guard read > 0 else { return read == 0 ? "the file became shorter while it was copied" : String(cString: strerror(errno)) }
            let written = buffer.withUnsafeBytes { pwrite(target, $0.baseAddress, read, off_t(offset)) }
            guard written == read else { return String(cString: strerror(errno)) }
            offset += Int64(read)
        }
        return nil
    }
}
