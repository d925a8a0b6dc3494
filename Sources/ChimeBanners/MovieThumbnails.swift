import CGioUnix
import CPixbuf
import ChimeCore
import ChimeGLib
import Glibc

/// Thumbnails of the movies notifications carry, made by the system's thumbnailers
/// (`thumbnailers/*.thumbnailer` in the XDG data folders: ffmpegthumbnailer's, totem's), each in
/// a sandbox without network (bubblewrap, when installed) and within `timeLimit`, and kept as the
/// XDG thumbnail specification says (`$XDG_CACHE_HOME/thumbnails/large/MD5(URI).png`, with
/// `Thumb::URI` and `Thumb::MTime`), so each is made once and file managers find it too.
public final class MovieThumbnails {
    /// The presenter's one, used only from its main loop (banners and the panel share what is being made).
    nonisolated(unsafe) public static let shared = MovieThumbnails()
    static let size = 256
    static let timeLimit: UInt32 = 10_000

    /// Callers waiting for a thumbnail being made, by URI.
    private var waiting: [String: [(String?) -> Void]] = [:]
    private lazy var thumbnailers = Self.findThumbnailers()

    /// Calls `done` with the thumbnail's path, at once when it is cached and on the main loop when
    /// a thumbnailer made it; nil (and why in the log) when none could.
    public func thumbnail(of attachment: Attachment, log: @escaping (String) -> Void, done: @escaping (String?) -> Void) {
        guard let uri = Self.uri(attachment.path) else { return done(nil) }
        var info = stat()
        guard stat(attachment.path, &info) == 0 else { return done(nil) }
        let mtime = String(info.st_mtim.tv_sec)
        let cached = Self.cachePath(uri)
        if Self.isCurrent(cached, uri: uri, mtime: mtime) { return done(cached) }
        guard waiting[uri] == nil else { return waiting[uri]!.append(done) }
        guard let thumbnailer = thumbnailers.first(where: { $0.handles(attachment.type) }) else {
            log("no thumbnailer for \(attachment.type) (install ffmpegthumbnailer); \(attachment.name) is shown as an icon")
            return done(nil)
        }
        waiting[uri] = [done]
        let folder = Self.scratchFolder()
        let output = folder + "/thumbnail.png"
        var arguments = thumbnailer.arguments(input: attachment.path, uri: uri, output: output, size: Self.size)
        if let time = attachment.time, thumbnailer.takesTime { arguments += ["-t", Self.clockTime(time)] }
        let sandboxed = Self.sandboxed(arguments, writable: folder)
        var timer: UInt32 = 0
        let started = ChildProcess.spawn(sandboxed, ownGroup: true) { [weak self] status in
            GLibSources.remove(timer)
            let made = Self.keep(output, as: cached, uri: uri, mtime: mtime)
            if made == nil { log("the thumbnailer for \(attachment.name) made nothing (wait status \(status))") }
            Self.remove(folder)
            self?.finish(uri, made)
        }
        switch started {
        case .success(let pid):
            timer = GLibSources.timeout(milliseconds: Self.timeLimit) {
                log("the thumbnailer for \(attachment.name) took over \(Self.timeLimit / 1000) s and was stopped")
                kill(-pid, SIGKILL)
                return false
            }
        case .failure(let failure):
            log("cannot start \(sandboxed[0]): \(failure.message)")
            Self.remove(folder)
            finish(uri, nil)
        }
    }

    private func finish(_ uri: String, _ path: String?) {
        for done in waiting.removeValue(forKey: uri) ?? [] { done(path) }
    }

    // MARK: The specification's cache

    public static func uri(_ path: String) -> String? {
        guard let uri = g_filename_to_uri(path, nil, nil) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    static func cachePath(_ uri: String) -> String {
        let checksum = g_compute_checksum_for_string(G_CHECKSUM_MD5, uri, -1)!
        defer { g_free(checksum) }
        return String(cString: g_get_user_cache_dir()) + "/thumbnails/large/" + String(cString: checksum) + ".png"
    }

    /// Made for this file as it is now: the thumbnail says the file's URI and modification time.
    private static func isCurrent(_ path: String, uri: String, mtime: String) -> Bool {
        guard access(path, R_OK) == 0, let pixbuf = gdk_pixbuf_new_from_file(path, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let option = { (key: String) in gdk_pixbuf_get_option(pixbuf, key).map { String(cString: $0) } }
        return option("tEXt::Thumb::URI") == uri && option("tEXt::Thumb::MTime") == mtime
    }

    /// Moves what the thumbnailer wrote into the cache, with the keys the specification asks for;
    /// the cache path, or nil when it wrote no image.
    private static func keep(_ output: String, as cached: String, uri: String, mtime: String) -> String? {
        guard let pixbuf = gdk_pixbuf_new_from_file(output, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let folder = String(cached[..<cached.lastIndex(of: "/")!])
        g_mkdir_with_parents(folder, 0o700)
        let temporary = cached + ".\(getpid()).tmp"
        var keys: [UnsafeMutablePointer<CChar>?] = [strdup("tEXt::Thumb::URI"), strdup("tEXt::Thumb::MTime"), nil]
        var values: [UnsafeMutablePointer<CChar>?] = [strdup(uri), strdup(mtime), nil]
        defer { for pointer in keys + values { free(pointer) } }
        guard gdk_pixbuf_savev(pixbuf, temporary, "png", &keys, &values, nil) != 0, rename(temporary, cached) == 0 else {
            unlink(temporary)
            return nil
        }
        return cached
    }

    // MARK: Running a thumbnailer

    /// In bubblewrap when it is installed: the whole system read-only, no network, no other
    /// process to see, only `writable` to write to, and gone with the presenter.
    static func sandboxed(_ arguments: [String], writable: String) -> [String] {
        guard access("/usr/bin/bwrap", X_OK) == 0 else { return arguments }
        return ["/usr/bin/bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", writable, writable,
                "--unshare-all", "--die-with-parent", "--new-session", "--"] + arguments
    }

    private static func scratchFolder() -> String {
        var template = Array((String(cString: g_get_tmp_dir()) + "/chime-thumbnail-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) } ?? String(cString: g_get_tmp_dir())
        }
    }

    private static func remove(_ folder: String) {
        for entry in contents(of: folder) { unlink(folder + "/" + entry) }
        rmdir(folder)
    }

    private static func contents(of folder: String) -> [String] {
        guard let listing = g_dir_open(folder, 0, nil) else { return [] }
        defer { g_dir_close(listing) }
        var names: [String] = []
        while let name = g_dir_read_name(listing) { names.append(String(cString: name)) }
        return names
    }

    /// `hh:mm:ss`, as ffmpegthumbnailer's `-t` takes a time.
    static func clockTime(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let pad = { (number: Int) in number < 10 ? "0\(number)" : "\(number)" }
        return "\(pad(whole / 3600)):\(pad(whole / 60 % 60)):\(pad(whole % 60))"
    }

    /// One `.thumbnailer` file: the program and the types it makes thumbnails of.
    struct Thumbnailer {
        var exec: [String]
        var types: [String]

        func handles(_ type: String) -> Bool { types.contains { $0 == type || g_content_type_is_a(type, $0) != 0 } }

        /// ffmpegthumbnailer takes the time of its frame (`-t`); others take the first.
        var takesTime: Bool { exec.first.map { $0.hasSuffix("ffmpegthumbnailer") } ?? false }

        /// Its Exec line with the specification's fields filled: %i the path, %u the URI, %o the
        /// output, %s the size, %% a percent sign.
        func arguments(input: String, uri: String, output: String, size: Int) -> [String] {
            exec.map { word in
                var result = ""
                var iterator = word.makeIterator()
                while let character = iterator.next() {
                    guard character == "%", let field = iterator.next() else {
                        result.append(character)
                        continue
                    }
                    switch field {
                    case "i": result += input
                    case "u": result += uri
                    case "o": result += output
                    case "s": result += String(size)
                    default: result.append(field)
                    }
                }
                return result
            }
        }
    }

    /// The thumbnailers installed, the user's first, each program found on PATH.
    static func findThumbnailers() -> [Thumbnailer] {
        var folders = [String(cString: g_get_user_data_dir())]
        var dirs = g_get_system_data_dirs()
        while let dir = dirs?.pointee {
            folders.append(String(cString: dir))
            dirs = dirs?.advanced(by: 1)
        }
        var found: [Thumbnailer] = []
        for folder in folders.map({ $0 + "/thumbnailers" }) {
            for name in contents(of: folder).sorted() where name.hasSuffix(".thumbnailer") {
                guard case .success(let text) = FileContents.read(folder + "/" + name) else { continue }
                let file = KeyFile()
                guard file.load(text) == nil, let exec = file.string("Thumbnailer Entry", "Exec") else { continue }
                var argc: Int32 = 0
                var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
                guard g_shell_parse_argv(exec, &argc, &argv, nil) != 0, let argv else { continue }
                defer { g_strfreev(argv) }
                var words = (0..<Int(argc)).compactMap { argv[$0].map { String(cString: $0) } }
                guard let program = words.first, let path = g_find_program_in_path(program) else { continue }
                words[0] = String(cString: path)
                g_free(path)
                found.append(Thumbnailer(exec: words, types: file.list("Thumbnailer Entry", "MimeType")))
            }
        }
        return found
    }
}
