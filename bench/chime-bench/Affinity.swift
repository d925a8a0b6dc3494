import ChimeTestSupport
import Foundation
import Glibc

/// Which CPUs processes may run on, set with util-linux's `taskset` (Swift's Glibc leaves out
/// `sched_setaffinity`). Used to measure round trips with the client, the bus and the server on
/// one CPU, where they can only take turns: the server's own work then shows in full, whatever
/// the scheduler would have done with two CPUs.
enum Affinity {
    static let taskset = "/usr/bin/taskset"

    /// The hexadecimal mask of every thread of `pid`; nil when taskset is missing or says no.
    static func mask(of pid: pid_t) -> String? {
        guard let output = run(["-p", String(pid)]) else { return nil }
        // "pid 123's current affinity mask: 3"
        return output.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Sets every thread of each of `pids` to `mask`; false when any could not be set.
    @discardableResult
    static func set(_ pids: [pid_t], to mask: String) -> Bool {
        pids.allSatisfy { run(["-a", "-p", mask, String($0)]) != nil }
    }

    /// Runs `body` with every thread of `pids` on one CPU, then puts back each one's CPUs. False,
    /// and `body` not run, when taskset is missing or refuses.
    @discardableResult
    static func onOneCPU(_ pids: [pid_t], _ body: () throws -> Void) rethrows -> Bool {
        let masks = pids.map(mask(of:))
        guard masks.allSatisfy({ $0 != nil }) else { return false }
        defer { for (pid, mask) in zip(pids, masks) { set([pid], to: mask!) } }
        guard set(pids, to: "1") else { return false }
        try body()
        return true
    }

    private static func run(_ arguments: [String]) -> String? {
        guard access(taskset, X_OK) == 0,
              let process = try? Subprocess(taskset, arguments, environment: [:]),
              process.wait(timeout: 5) == 0 else { return nil }
        return process.stdout
    }
}
