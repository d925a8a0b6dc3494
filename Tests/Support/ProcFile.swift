import Foundation
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

/// How often each thread of a process (by thread id) has been switched out, voluntarily or not:
/// each time one sleeps and wakes counts. Empty once the process is gone.
public func contextSwitches(of pid: pid_t) -> [Int: Int] {
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var switches: [Int: Int] = [:]
    for thread in threads {
        guard let id = Int(thread), let status = procFile(pid, "task/\(thread)/status") else { continue }
        switches[id] = status.split(separator: "\n")
            .filter { $0.hasPrefix("voluntary_ctxt_switches:") || $0.hasPrefix("nonvoluntary_ctxt_switches:") }
            .reduce(0) { $0 + (Int($1.split(whereSeparator: \.isWhitespace).last ?? "") ?? 0) }
    }
    return switches
}

/// How often the threads woke between two counts (`contextSwitches`): a thread started between
/// them counts from 0, one that ended counts no more.
public func wakeups(from before: [Int: Int], to after: [Int: Int]) -> Int {
    after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
}
