import Foundation
import Glibc

/// A headless PulseAudio with a null sink, private to one test, and recordings of what reached it.
/// The recording is raw s16le stereo at 48 kHz, so it can be cut off at any moment, and sox measures it.
public final class PulseServer: @unchecked Sendable {
    public let directory: URL
    public private(set) var process: Subprocess
    public var address: String { "unix:\(directory.path)/pulse/native" }
    private var stopped = false

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-pulse-\(UUID().uuidString)")
        for folder in ["pulse", "xdg", "home"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        process = try Self.start(in: directory)
    }

    private static func start(in directory: URL) throws -> Subprocess {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        env["HOME"] = directory.appendingPathComponent("home").path
        env["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("xdg").path
        env["PULSE_RUNTIME_PATH"] = directory.appendingPathComponent("pulse").path
        let process = try Subprocess("/usr/bin/pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--log-target=stderr", "--log-level=info",
            "--load=module-null-sink sink_name=test_sink",
            "--load=module-native-protocol-unix socket=\(directory.path)/pulse/native auth-anonymous=1",
        ], environment: env)
        guard process.line(onStderr: true, timeout: 20, matching: { $0.contains("Daemon startup complete") }) != nil else {
            throw TestFailure("pulseaudio did not start: \(process.stderr)")
        }
        return process
    }

    /// Kills the server outright and starts a new one on the same socket.
    public func restart() throws {
        process.signal(SIGKILL)
        _ = process.wait(timeout: 10)
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("pulse/native"))
        process = try Self.start(in: directory)
    }

    deinit { stop() }

    /// Kills the server and removes its folder. A program's globals are never deinitialised, so
    /// one that keeps a server in one (chime-bench) stops it itself before it exits.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        process.signal(SIGCONT)
        process.signal(SIGKILL)
        _ = process.wait(timeout: 5)
        try? FileManager.default.removeItem(at: directory)
    }

    public func record() throws -> Recording { try Recording(server: self) }

    public final class Recording: @unchecked Sendable {
        public static let bytesPerSecond = 48_000 * 2 * 2
        public let file: URL
        private let process: Subprocess

        init(server: PulseServer) throws {
            file = server.directory.appendingPathComponent("rec-\(UUID().uuidString).raw")
            process = try Subprocess("/bin/sh", ["-c", "exec parec --latency-msec=50 --format=s16le --rate=48000 --channels=2 -d test_sink.monitor > '\(file.path)'"],
                                     environment: ProcessInfo.processInfo.environment.merging(["PULSE_SERVER": server.address]) { $1 })
            // Ready once samples (silence) flow.
            guard grow(by: 0.1) else { throw TestFailure("parec recorded nothing: \(process.stderr)") }
        }

        deinit { process.signal(SIGKILL) }

        public var bytes: Int { (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0 }

        /// Waits until `seconds` more audio has been recorded: the null sink's monitor produces
        /// samples continuously, so this is a condition, not a guess at how long playback takes.
        @discardableResult
        public func grow(by seconds: Double, timeout: Double = 15) -> Bool {
            let target = bytes + Int(seconds * Double(Self.bytesPerSecond))
            let deadline = Date().addingTimeInterval(timeout)
            while bytes < target {
                guard Date() < deadline else { return false }
                process.pump(timeout: 0.02)
            }
            return true
        }

        /// Stops and measures with sox: the peak amplitude, 0 for silence.
        public func stopAndMeasure() throws -> Double {
            process.signal(SIGKILL)
            _ = process.wait(timeout: 5)
            let sox = try Subprocess("/usr/bin/sox", ["-t", "raw", "-r", "48000", "-e", "signed", "-b", "16", "-c", "2", file.path, "-n", "stat"],
                                     environment: ProcessInfo.processInfo.environment)
            guard sox.wait(timeout: 20) == 0,
                  let line = sox.stderrLines.first(where: { $0.hasPrefix("Maximum amplitude:") }),
                  let value = Double(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else {
                throw TestFailure("sox could not measure \(file.path): \(sox.stderr)")
            }
            return value
        }
    }
}
