import Glibc

/// Calls back once when a file of a given name is made in a folder (inotify, on the main loop):
/// a display's socket coming back after its compositor or X server started again. Costs
/// nothing while it waits.
public final class CreationWatch {
    private let descriptor: Int32
    private var source: UInt32?

    /// nil when inotify cannot watch the folder (it does not exist, or no watches are left).
    public init?(path: String, created: @escaping () -> Void) {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(descriptor)
            return nil
        }
        source = GLibSources.readable(descriptor) { [weak self] in
            guard let self else { return false }
            guard self.namesRead().contains(name) else { return true }
            // Returning false ends the source once this returns; removing it here would free
            // this closure while it runs.
            self.source = nil
            close(self.descriptor)
            created()
            return false
        }
    }

    deinit { cancel() }

    public func cancel() {
        guard let source else { return }
        GLibSources.remove(source)
        close(descriptor)
        self.source = nil
    }

    /// The names in the events waiting on the descriptor.
    private func namesRead() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))  // inotify_event.len
                    let start = offset + MemoryLayout<inotify_event>.size
                    let field = bytes[start..<min(start + length, count)]
                    names.append(String(decoding: field.prefix { $0 != 0 }, as: UTF8.self))
                    offset = start + length
                }
            }
        }
    }
}
