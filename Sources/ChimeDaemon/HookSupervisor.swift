import CShims
import Glibc

/// A rule's command, run and bounded by a process of its own (`chimed --run-hook SECONDS --
/// COMMAND`, which chimed starts for each): it is the subreaper of all the command starts, so
/// what the command leaves behind (`sleep 60 &`, a `setsid` daemon) becomes its child instead
/// of init's, and at the time limit, or when chimed stops it, it ends every one of them. It
/// exits once all are gone: with the command's status, or `timedOut` when it had to end them.
public enum HookSupervisor {
    /// The exit status after the time limit ended the command, as timeout(1) says it.
    public static let timedOut: Int32 = 124

    public static func run(seconds: UInt32, command: String) -> Int32 {
        chime_become_subreaper()
        // SIGALRM and SIGTERM interrupt the wait below (no SA_RESTART); what they mean is read
        // from `ending`.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in HookSupervisor.ending = 1 }
        sigemptyset(&action.sa_mask)
        for signal in [SIGALRM, SIGTERM] { sigaction(signal, &action, nil) }
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { word in strdup(word) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else { return 127 }
        alarm(seconds)
        var status: Int32 = 0
        var ended = false
        while true {
            if ending != 0, !ended {
                ended = true
                endChildren()
            }
            var raw: Int32 = 0
            let reaped = waitpid(-1, &raw, 0)
            if reaped == pid { status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f) }
            if reaped < 0, errno == ECHILD { break }
            // Something outlives the time limit's first round (a child that was just being
            // started): the next round ends it.
            if ended { endChildren() }
        }
        return ended ? timedOut : status
    }

    /// Set from a signal handler: the time is up, or chimed asked.
    nonisolated(unsafe) static var ending: sig_atomic_t = 0

    /// SIGKILL to each process whose parent this is; their own children then become this
    /// process's, for the next round.
    private static func endChildren() {
        let me = getpid()
        guard let folder = opendir("/proc") else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let child = pid_t(name), parent(of: child) == me else { continue }
            kill(child, SIGKILL)
        }
    }

    /// The parent's pid, from /proc/PID/stat: the fourth field, after the command's name in parentheses.
    private static func parent(of pid: pid_t) -> pid_t? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(cString: buffer)
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }
}
