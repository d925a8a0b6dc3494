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

/// CPU time (user and system) a process has used, in milliseconds; clock-tick resolution.
func cpuMilliseconds(of pid: pid_t) -> Double {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return .nan }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 1024)
    guard fgets(&line, Int32(line.count), file) != nil else { return .nan }
    let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // After the command name's closing parenthesis: state is field 3, utime 14 and stime 15.
    guard let end = text.lastIndex(of: ")") else { return .nan }
    let fields = text[text.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
    return (user + system) * 1_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// CPU time this process has used, in milliseconds.
func ownCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    return seconds * 1_000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000
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
