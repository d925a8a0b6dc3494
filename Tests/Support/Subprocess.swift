import Foundation
import Glibc

/// A child process with its output captured line by line. Waiting is always bounded:
/// `line(matching:timeout:)` and `wait(timeout:)` return when the condition holds or time is up.
/// Spawned with posix_spawn rather than Foundation's Process: children start with no signal
/// blocked (Foundation's block SIGTERM), and exit is learnt by waitpid, on demand.
public final class Subprocess: @unchecked Sendable {
    public let pid: pid_t
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private var status: Int32?
    private var stdoutBuffer = [UInt8]()
    private var stderrBuffer = [UInt8]()
    public private(set) var stdoutLines: [String] = []
    public private(set) var stderrLines: [String] = []

    public init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw TestFailure("pipe failed") }
        // Close-on-exec (pipe2 is not in Swift's Glibc), so that children other tests start
        // do not keep these pipes open; the child gets its own ends by dup2, which clears it.
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        var result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        // An executable the test has just written is "busy" while a child another test is
        // starting still holds the written file's descriptor between its fork and its exec,
        // a moment; there is no event to await, so try again a bounded number of times.
        for _ in 0..<100 where result == ETXTBSY {
            usleep(10_000)
            result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        }
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw TestFailure("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        stdoutFD = outPipe[0]
        stderrFD = errPipe[0]
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitpid(pid, nil, 0)
        }
        close(stdoutFD)
        close(stderrFD)
    }

    public var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return false
    }

    public var stdout: String { (stdoutLines + [String(decoding: stdoutBuffer, as: UTF8.self)]).joined(separator: "\n") }
    public var stderr: String { (stderrLines + [String(decoding: stderrBuffer, as: UTF8.self)]).joined(separator: "\n") }

    /// Waits for a line on stdout (or stderr), from line index `from` on, that satisfies
    /// `predicate`; returns it, or nil at the timeout.
    public func line(onStderr: Bool = false, from: Int = 0, timeout: Double = 10, matching predicate: (String) -> Bool) -> String? {
        var checked = from
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let lines = onStderr ? stderrLines : stdoutLines
            if checked < lines.count, let found = lines[checked...].first(where: predicate) { return found }
            checked = max(checked, lines.count)
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 || pump(timeout: remaining) == .closed {
                let final = onStderr ? stderrLines : stdoutLines
                return checked < final.count ? final[checked...].first(where: predicate) : nil
            }
        }
    }

    public enum PumpResult { case data, timeout, closed }

    /// Reads everything already written, so `stdoutLines` and `stderrLines` are current.
    public func drain() {
        while pump(timeout: 0) == .data {}
    }

    /// Reads whatever output arrives within `timeout`.
    @discardableResult
    public func pump(timeout: Double) -> PumpResult {
        var fds = [pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 2, Int32(max(0, timeout * 1000))) > 0 else { return .timeout }
        var result = PumpResult.closed
        for (index, fd) in fds.enumerated() where fd.revents != 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd.fd, &chunk, chunk.count)
            if count > 0 {
                result = .data
                if index == 0 { append(chunk[..<count], to: &stdoutBuffer, lines: &stdoutLines) }
                else { append(chunk[..<count], to: &stderrBuffer, lines: &stderrLines) }
            }
        }
        return result
    }

    /// Only the new bytes are searched for line ends: a long line (a JSON listing of 70 MB)
    /// would otherwise be scanned again for every chunk.
    private func append(_ bytes: ArraySlice<UInt8>, to buffer: inout [UInt8], lines: inout [String]) {
        var searchFrom = buffer.count
        buffer += bytes
        var lineStart = 0
        while let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
            lines.append(String(decoding: buffer[lineStart..<newline], as: UTF8.self))
            lineStart = newline + 1
            searchFrom = lineStart
        }
        if lineStart > 0 { buffer.removeSubrange(..<lineStart) }
    }

    /// Waits for the process to exit, reading its output meanwhile; nil if it is still running at the timeout.
    public func wait(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, deadline.timeIntervalSinceNow > 0 {
            if pump(timeout: min(0.02, max(0, deadline.timeIntervalSinceNow))) == .closed { usleep(1_000) }
        }
        guard !isRunning else { return nil }
        drain()
        return status
    }

    public func signal(_ signal: Int32) { kill(pid, signal) }
}

/// A failure in the harness itself (a process that would not start), as opposed to a failed expectation.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Copies an executable for a test to run, writing it through a close-on-exec descriptor so
/// that no child another test starts meanwhile keeps it open for writing (which would make
/// running it fail with "Text file busy" for as long as that child lives).
public func copyExecutable(_ source: String, to destination: String) throws {
    let contents = try Data(contentsOf: URL(fileURLWithPath: source))
    let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw TestFailure("cannot create \(destination): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == contents.count else { throw TestFailure("cannot write \(destination)") }
}
