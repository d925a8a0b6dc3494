import ChimeTestSupport
import Foundation
import Glibc

/// One notification server under test, on a private bus of its own.
final class Server {
    enum Kind: String, CaseIterable {
        case reference, chimed, dunst
        /// chimed with --no-history: what the store costs.
        case chimedNoStore = "chimed-no-store"
        /// chimed from another build (`--compare DIR`: its `binaries`), measured beside this one's.
        case compared = "chimed-compared"
        /// The reference with 20 or 40 µs of work of its own a Notify (`reference-server --work`):
        /// what that much work costs a round trip on this machine, to read chimed's ratio by
        /// (40 µs is about what a 1.3x p50 leaves a server that answers after its work).
        case reference20 = "reference-20us"
        case reference40 = "reference-40us"
        /// The reference replying first and leaving 20 µs of work to a second thread, with none
        /// or 5 µs before its reply (only with `--only`): what a server gains on this machine by
        /// answering before its work, and what little work before the reply it can afford.
        case referenceThread20 = "reference-thread-20us"
        case reference5Thread20 = "reference-5us-thread-20us"

        /// The work a Notify, for the reference made to work.
        var work: ReferenceWork? {
            switch self {
            case .reference20: ReferenceWork(beforeReply: 20)
            case .reference40: ReferenceWork(beforeReply: 40)
            case .referenceThread20: ReferenceWork(onThread: 20)
            case .reference5Thread20: ReferenceWork(beforeReply: 5, onThread: 20)
            default: nil
            }
        }
    }

    /// Microseconds of work the reference does for each Notify: before its reply, and on a
    /// second thread once the reply is out.
    struct ReferenceWork {
        var beforeReply = 0
        var onThread = 0

        var arguments: [String] {
            (beforeReply > 0 ? ["--work", String(beforeReply)] : []) + (onThread > 0 ? ["--work-on-thread", String(onThread)] : [])
        }

        /// "20 µs before its reply", "20 µs on a second thread after its reply", or both.
        var description: String {
            [beforeReply > 0 ? "\(beforeReply) µs before its reply" : nil,
             onThread > 0 ? "\(onThread) µs on a second thread after its reply" : nil]
                .compactMap { $0 }.joined(separator: " and ")
        }
    }

    let kind: Kind
    let directory: URL
    let busAddress: String
    /// Its folder, bus and environment.
    private let session: PrivateSession
    private var display: VirtualDisplay?
    private(set) var process: Subprocess?
    /// Milliseconds from spawning the server to its owning org.freedesktop.Notifications.
    private(set) var startup: Double = .nan

    /// `config`: chimed's config file, when a measurement needs other than the defaults.
    init(_ kind: Kind, binaries: URL, pulse: PulseServer?, config: String? = nil) throws {
        self.kind = kind
        session = try PrivateSession(name: kind.rawValue, pulse: pulse)
        directory = session.directory
        busAddress = session.busAddress
        // chimed headless: its banners are a process of their own and not what this measures.
        var env = session.environment
        if let config {
            let folder = directory.appendingPathComponent("config/chime")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try config.write(to: folder.appendingPathComponent("chime.conf"), atomically: true, encoding: .utf8)
        }
        var executable: String
        var arguments: [String] = []
        switch kind {
        case .reference, .reference20, .reference40, .referenceThread20, .reference5Thread20:
            executable = binaries.appendingPathComponent("reference-server").path
            arguments = kind.work?.arguments ?? []
        case .chimed, .chimedNoStore, .compared:
            executable = binaries.appendingPathComponent("chimed").path
            if kind == .chimedNoStore { arguments = ["--no-history"] }
        case .dunst:
            let xvfb = try VirtualDisplay(environment: env)
            display = xvfb
            env["DISPLAY"] = xvfb.name
            executable = "/usr/bin/dunst"
            arguments = ["-config", binaries.appendingPathComponent("dunstrc").path]
        }
        // Startup: from spawn to the name's owner appearing, seen as NameOwnerChanged.
        let watcher = try BenchClient(address: busAddress)
        try watcher.connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.freedesktop.Notifications'")
        let start = nanoseconds()
        if kind != .dunst { (executable, arguments) = Self.wrap(executable, arguments, environment: env) }
        process = try Subprocess(executable, arguments, environment: env)
        guard watcher.waitForSignal("NameOwnerChanged", timeout: 60) else {
            throw TestFailure("\(kind) did not take the name: \(process?.stderr ?? "")")
        }
        startup = Double(nanoseconds() - start) / 1e6
    }

    /// CHIME_BENCH_WRAP runs chimed (or the reference, to compare) under a profiler, e.g.
    /// "valgrind --tool=callgrind": the command line to run instead.
    static func wrap(_ executable: String, _ arguments: [String], environment: [String: String]) -> (String, [String]) {
        guard let wrap = environment["CHIME_BENCH_WRAP"], !wrap.isEmpty else { return (executable, arguments) }
        let words = wrap.split(separator: " ").map(String.init)
        return (words[0].hasPrefix("/") ? words[0] : "/usr/bin/" + words[0], Array(words.dropFirst()) + [executable] + arguments)
    }

    var pid: pid_t { process?.pid ?? 0 }
    var busPID: pid_t { session.bus.pid }

    func stop() {
        // SIGTERM first, so a profiler wrapping chimed writes its output.
        process?.signal(SIGTERM)
        _ = process?.wait(timeout: 20)
        process?.signal(SIGKILL)
        _ = process?.wait(timeout: 5)
        display?.stop()
        session.stop()
    }
}
