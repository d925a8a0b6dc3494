import Foundation
import Glibc

/// A private Xvfb on a display number it picks itself (`-displayfd`), for the benchmark: no
/// number is taken from another server, and none a killed server left locked is in the way.
/// Stopped with SIGTERM, so it removes its lock file and socket.
public final class VirtualDisplay: @unchecked Sendable {
    /// ":N".
    public let name: String
    private let process: Subprocess

    public init(environment: [String: String], width: Int = 1280, height: Int = 800) throws {
        process = try Subprocess("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
                                 environment: environment)
        guard let number = process.line(timeout: 10, matching: { Int($0) != nil }) else {
            throw TestFailure("Xvfb did not start: \(process.stderr)")
        }
        name = ":" + number
    }

    deinit { stop() }

    public func stop() {
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 5)
        }
    }
}
