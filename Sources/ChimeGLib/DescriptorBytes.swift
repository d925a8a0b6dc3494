import ChimeCore
import Glibc

/// A descriptor's bytes, for `AttachmentCheck`: read with pread, never past what fstat said.
public struct DescriptorBytes: AttachmentBytes {
    public let descriptor: Int32
    public let size: Int64

    public init(descriptor: Int32, size: Int64) {
        self.descriptor = descriptor
        self.size = size
    }

    /// The bytes of the regular file at `path`, for `body`; nil when it cannot be opened.
    public static func reading<T>(_ path: String, _ body: (DescriptorBytes) -> T) -> T? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return body(DescriptorBytes(descriptor: descriptor, size: Int64(info.st_size)))
    }

    public func read(at offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: min(count, Int(size - offset)))
        let done = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        return Array(bytes.prefix(max(0, done)))
    }
}
