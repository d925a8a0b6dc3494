import Glibc

/// Monotonic nanoseconds.
func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The value at `fraction` (0.5, 0.99) of the sorted samples.
func percentile(_ samples: [UInt64], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
}

/// VmRSS and VmHWM of a process, in kB.
func memory(of pid: pid_t) -> (rss: Double, hwm: Double) {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return (.nan, .nan) }
    defer { fclose(file) }
    var rss = Double.nan, hwm = Double.nan
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let value = Double(text.split(separator: " ").dropFirst().first { !$0.isEmpty }?.trimmingCharacters(in: .whitespaces) ?? "")
        if text.hasPrefix("VmRSS:") { rss = value ?? .nan }
        if text.hasPrefix("VmHWM:") { hwm = value ?? .nan }
    }
    return (rss, hwm)
}

extension Substring {
    func trimmingCharacters(in set: Set<Character>) -> String { String(self.filter { !set.contains($0) }) }
}

extension Set where Element == Character {
    static let whitespaces: Set<Character> = [" ", "\t", "\n"]
}
