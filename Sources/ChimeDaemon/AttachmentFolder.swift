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

    init(stateFolder: String) {
        root = stateFolder + "/attachments"
        mayHaveFiles = FolderEntries.list(root).contains { folder in folder.isFolder && !FolderEntries.list(folder.path).isEmpty }
    }

    /// Checks the files `requests` name and copies those that pass into `app`'s folder, within
    /// `quota` (the app's oldest files go to make room). One of Chime's own hint that cannot be
    /// kept refuses the notification, and nothing of it is kept; one of KDE's is dropped and said
    /// in `problems`.
    func keep(_ requests: [AttachmentRequest], app: String, quota: Int64, wall: Int64,
              problems: inout [String]) throws(RequestError) -> [Attachment] {
        var checked: [CheckedFile] = []
        defer { for file in checked { close(file.descriptor) } }
        for request in requests {
            switch check(request) {
            case .success(let file): checked.append(file)
            case .failure(let problem) where request.required:
                throw .invalidArgument("\(HintName.attachments.text): \(request.path.isEmpty ? "" : request.path + ": ")\(problem)")
            case .failure(let problem):
                problems.append("hint 'x-kde-urls': \(request.path): \(problem); not kept")
            }
        }
        guard !checked.isEmpty else { return [] }
        let folder = appFolder(app)
        // Only what is missing, private; the copies are made 0600.
        g_mkdir_with_parents(folder, 0o700)
        mayHaveFiles = true
        var kept: [Attachment] = []
        for file in checked {
            switch copy(file, into: folder, quota: quota, wall: wall) {
            case .success(let attachment): kept.append(attachment)
            case .failure(let problem) where file.request.required:
                for attachment in kept { unlink(attachment.path) }
                throw .invalidArgument("\(HintName.attachments.text): \(file.request.path): \(problem)")
            case .failure(let problem):
                problems.append("hint 'x-kde-urls': \(file.request.path): \(problem); not kept")
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

    /// The app's folder: its name kept to letters, digits, '.', '-' and '_'.
    func appFolder(_ app: String) -> String {
        let safe = app.unicodeScalars.prefix(64).map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        let name = String(safe).drop { $0 == "." }
        return root + "/" + (name.isEmpty ? "_" : String(name))
    }

    // MARK: Checking

    /// An app's file that passed the check, still open: it is copied from this descriptor, so
    /// what is copied is what was checked, even if the app replaces the file meanwhile.
    private struct CheckedFile {
        var descriptor: Int32
        var request: AttachmentRequest
        var type: String
        var kind: AttachmentKind
        var size: Int64
        var fileExtension: String
    }

    private func check(_ request: AttachmentRequest) -> Result<CheckedFile, HintProblem> {
        if let problem = request.problem { return .failure(.init(problem)) }
        // Opened without blocking, so a FIFO or a device cannot stall chimed; fstat then says what it is.
        let descriptor = open(request.path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.init(String(cString: strerror(errno)))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .failure(.init("not a regular file"))
        }
        let bytes = DescriptorBytes(descriptor: descriptor, size: Int64(info.st_size))
        let head = bytes.read(at: 0, count: 4096)
        let type = ContentTypes.type(of: head)
        let isA = { (other: String) in ContentTypes.type(type, isA: other) }
        switch AttachmentCheck.check(type: type, isA: isA, bytes: bytes) {
        case .success(let kind):
            return .success(CheckedFile(descriptor: descriptor, request: request, type: type, kind: kind, size: bytes.size,
                                        fileExtension: AttachmentKind.fileExtension(type: type, isA: isA)))
        case .failure(let problem):
            close(descriptor)
            return .failure(problem)
        }
    }

    // MARK: Copying

    private func copy(_ file: CheckedFile, into folder: String, quota: Int64, wall: Int64) -> Result<Attachment, HintProblem> {
        let stored = storedFiles(in: folder)
        guard let evicted = AttachmentQuota.evictions(from: stored, adding: file.size, quota: quota) else {
            return .failure(.init("it is \(file.size) bytes, over the app's attachment quota of \(quota)"))
        }
        for path in evicted {
            unlink(path)
            Log.info("\(path) deleted: its app's attachments were over its quota of \(quota) bytes")
        }
        sequence += 1
        let path = "\(folder)/\(wall)-\(sequence).\(file.fileExtension)"
        let target = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else { return .failure(.init("cannot create \(path): \(String(cString: strerror(errno)))")) }
        defer { close(target) }
        if let problem = Self.copyBytes(from: file.descriptor, to: target, count: file.size) {
            unlink(path)
            return .failure(.init("cannot copy it into \(folder): \(problem)"))
        }
        return .success(Attachment(path: path, type: file.type, kind: file.kind, bytes: file.size,
                                   name: Attachment.displayName(ofPath: file.request.path),
                                   clip: file.request.clip, time: file.request.time))
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
