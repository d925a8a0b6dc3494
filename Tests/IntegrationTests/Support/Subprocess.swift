import Foundation
import Glibc

/// A child process with its output captured line by line. Waiting is always bounded:
/// `line(matching:timeout:)` and `wait(timeout:)` return when the condition holds or time is up.
final class Subprocess: @unchecked Sendable {
    let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private var stdoutBuffer = [UInt8]()
    private var stderrBuffer = [UInt8]()
    private(set) var stdoutLines: [String] = []
    private(set) var stderrLines: [String] = []

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { (stdoutLines + [String(decoding: stdoutBuffer, as: UTF8.self)]).joined(separator: "\n") }
    var stderr: String { (stderrLines + [String(decoding: stderrBuffer, as: UTF8.self)]).joined(separator: "\n") }

    /// Waits for a line on stdout (or stderr) that satisfies `predicate`; returns it, or nil at the timeout.
    func line(onStderr: Bool = false, timeout: Double = 10, matching predicate: (String) -> Bool) -> String? {
        var checked = 0
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let lines = onStderr ? stderrLines : stdoutLines
            if let found = lines[checked...].first(where: predicate) { return found }
            checked = lines.count
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 || pump(timeout: remaining) == .closed {
                return (onStderr ? stderrLines : stdoutLines)[checked...].first(where: predicate)
            }
        }
    }

    enum PumpResult { case data, timeout, closed }

    /// Reads whatever output arrives within `timeout`.
    @discardableResult
    func pump(timeout: Double) -> PumpResult {
        var fds = [pollfd(fd: stdoutPipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stderrPipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
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

    private func append(_ bytes: ArraySlice<UInt8>, to buffer: inout [UInt8], lines: inout [String]) {
        buffer += bytes
        while let newline = buffer.firstIndex(of: 0x0A) {
            lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
    }

    /// Waits for the process to exit, reading its output meanwhile; nil if it is still running at the timeout.
    func wait(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, deadline.timeIntervalSinceNow > 0 {
            if pump(timeout: min(0.02, max(0, deadline.timeIntervalSinceNow))) == .closed { usleep(1_000) }
        }
        guard !process.isRunning else { return nil }
        while pump(timeout: 0) == .data {}
        return process.terminationStatus
    }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }
}
