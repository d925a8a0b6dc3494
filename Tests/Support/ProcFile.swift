import Glibc

/// The whole text of /proc/PID/NAME; nil once the process is gone. Read to its end: Foundation's
/// `String(contentsOfFile:)` reads a /proc file's first 4 KB only (it reports a size of 0).
public func procFile(_ pid: pid_t, _ name: String) -> String? {
    guard let file = fopen("/proc/\(pid)/\(name)", "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
    return String(decoding: bytes, as: UTF8.self)
}
