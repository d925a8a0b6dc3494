import ChimeTestSupport
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

/// The middle value (the upper of the two middle ones for an even count); nan for none.
func median(_ values: [Double]) -> Double {
    values.isEmpty ? .nan : values.sorted()[values.count / 2]
}

/// CPU time (user and system) a process has used, in milliseconds; clock-tick resolution.
func cpuMilliseconds(of pid: pid_t) -> Double {
    // After the command name's closing parenthesis: state is field 3, utime 14 and stime 15.
    guard let text = procFile(pid, "stat"), let end = text.lastIndex(of: ")") else { return .nan }
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
    var rss = Double.nan, hwm = Double.nan
    for line in (procFile(pid, "status") ?? "").split(separator: "\n") {
        // "VmRSS:    14544 kB"
        let fields = line.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let value = Double(fields[1]) else { continue }
        if fields[0] == "VmRSS:" { rss = value }
        if fields[0] == "VmHWM:" { hwm = value }
    }
    return (rss, hwm)
}
