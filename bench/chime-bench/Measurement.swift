import ChimeTestSupport
import Foundation
import Glibc

/// One server's measurement, taken a phase at a time: a round (`measureRound`) runs each phase on
/// every server in turn, so the reference and chimed meet the machine's slow swings together.
final class Measurement {
    let server: Server
    private(set) var metrics = Metrics()
    private let sizes: Sizes
    private let client: BenchClient

    /// The phases, in order; each may read what an earlier one measured.
    static let phases: [(name: String, run: @Sendable (Measurement) throws -> Void)] = [
        ("sequential", { try $0.sequential() }),
        ("one-cpu", { try $0.oneCPU() }),
        ("image", { try $0.image() }),
        ("closes", { try $0.closes() }),
        ("pipelined", { $0.pipelined() }),
        ("windowed", { $0.windowed() }),
        ("flood", { try $0.flood() }),
    ]

    /// Whether this server takes part in `phase`. The reference made to work only measures round
    /// trips, which is all it is there to show. dunst has no one-CPU phase: it stops answering
    /// after its sequential calls, and that phase only waited out a call's 60 s timeout.
    func takes(_ phase: String) -> Bool {
        if server.kind == .dunst { return phase != "one-cpu" }
        return server.kind.work == nil || phase == "sequential" || phase == "one-cpu"
    }

    /// Starts the server and warms it up: first-call costs are start-up's, not Notify's.
    init(_ kind: Server.Kind, binaries: URL, pulse: PulseServer?, sizes: Sizes) throws {
        server = try Server(kind, binaries: binaries, pulse: pulse)
        self.sizes = sizes
        do {
            client = try BenchClient(address: server.busAddress)
            _ = try client.sequential(20)
        } catch {
            server.stop()
            throw error
        }
        // The reference made to work is there for its round trips alone.
        guard kind.work == nil else { return }
        metrics.startup = server.startup
        metrics.idleRSS = memory(of: server.pid).rss
    }

    /// `count` sequential calls, for `measureInterleaved`.
    func sequentialBlock(_ count: Int) throws -> [UInt64] {
        try client.sequential(count)
    }

    private func sequential() throws {
        let plain = try client.sequential(sizes.sequential)
        noteCutShort(plain, of: sizes.sequential, by: client, calls: "sequential calls")
        (metrics.p50, metrics.p99) = (percentile(plain, 0.5) / 1e3, percentile(plain, 0.99) / 1e3)
    }

    /// Says when a phase of sequential `calls` ended before its `count`, and why: a server that
    /// stops answering leaves a phase with the one wait that ended it as its figures.
    private func noteCutShort(_ samples: [UInt64], of count: Int, by client: BenchClient, calls: String) {
        guard samples.count < count else { return }
        let answered = samples.count - (client.lastCallUnanswered ? 1 : 0)
        let why = client.lastCallUnanswered
            ? "then a call waited out its timeout (\(format(Double(samples.last ?? 0) / 1e9, 0)) s), which is in its figures"
            : "then the phase's \(Int(sizes.limit)) s were up"
        metrics.cutShort.append("answered \(answered) of \(count) \(calls); \(why)")
    }

    /// The sequential calls again with the client, the bus and the server on one CPU (`Affinity`):
    /// on two, where the scheduler puts the three moves a round trip more than either server does
    /// (the reference's p50 ranged 78-158 µs between runs of one day), so this is the steadier
    /// measure of what a server's own work adds.
    private func oneCPU() throws {
        try Affinity.onOneCPU([getpid(), server.pid, server.busPID]) {
            let samples = try client.sequential(sizes.sequential)
            noteCutShort(samples, of: sizes.sequential, by: client, calls: "sequential calls on one CPU")
            metrics.oneCPUp50 = percentile(samples, 0.5) / 1e3
        }
    }

    private func image() throws {
        let image = try client.sequential(sizes.sequential, image: BenchClient.image)
        noteCutShort(image, of: sizes.sequential, by: client, calls: "calls with a 64x64 image")
        (metrics.imageP50, metrics.imageP99) = (percentile(image, 0.5) / 1e3, percentile(image, 0.99) / 1e3)
    }

    private func closes() throws {
        metrics.close50 = percentile(try client.closeLatencies(sizes.closes, limit: sizes.limit), 0.5) / 1e3
    }

    private func pipelined() {
        let cpuBefore = (cpuMilliseconds(of: server.pid), cpuMilliseconds(of: server.busPID), ownCPUMilliseconds())
        let run = client.pipelined(sizes.pipelined, limit: sizes.limit)
        mark("pipelined done", server.kind)
        if let last = run.replies.last, run.replies.count > 1 {
            metrics.pipelined = Double(run.replies.count) / (Double(last - run.start) / 1e9)
            let perNotification = 1_000 / Double(run.replies.count)
            metrics.serverCPU = (cpuMilliseconds(of: server.pid) - cpuBefore.0) * perNotification
            metrics.busCPU = (cpuMilliseconds(of: server.busPID) - cpuBefore.1) * perNotification
            metrics.clientCPU = (ownCPUMilliseconds() - cpuBefore.2) * perNotification
        }
        (metrics.rss, metrics.hwm) = memory(of: server.pid)
        if run.replies.count < sizes.pipelined { metrics.answered = run.replies.count }
    }

    /// Cost growth as history grows: the same number again, at most 256 in flight, so every
    /// reply's time is the server's pace and not the client's sending. Only for a server that
    /// answered the whole pipelined run. A window of 1,000 replies lasts about 40 ms, and on this
    /// machine one such window's pace moves by half from the next (BENCHMARKS.md, session 18), so
    /// the run is made `windowedRuns` times, each after the server has gone quiet, and the
    /// median of their last-1000 / first-1000 counts.
    private func windowed() {
        guard metrics.answered == nil else { return }
        let window = min(1_000, sizes.pipelined / 4)
        var growths: [Double] = []
        for run in 0..<Self.windowedRuns {
            if run > 0 { waitUntilQuiet([server.pid, server.busPID]) }
            let steady = client.windowed(sizes.pipelined, inFlight: 256, limit: sizes.limit).replies
            guard steady.count == sizes.pipelined, let last = steady.last else { return }
            // The same number of replies in each window: the ratio of their paces is that of their spans.
            growths.append(Double(steady[window] - steady[0]) / Double(last - steady[sizes.pipelined - window - 1]))
        }
        metrics.growth = median(growths)
    }

    static let windowedRuns = 3

    /// Another app's Notify while one client floods.
    private func flood() throws {
        let flooder = try BenchClient(address: server.busAddress)
        let (count, limit) = (sizes.pipelined, sizes.limit)
        let flood = Thread { _ = flooder.pipelined(count, limit: limit) }
        flood.start()
        let witness = try BenchClient(address: server.busAddress)
        let during = try witness.sequential(sizes.floodWitness, app: "Witness", limit: sizes.limit)
        noteCutShort(during, of: sizes.floodWitness, by: witness, calls: "another client's calls during the flood")
        metrics.floodP99 = percentile(during, 0.99) / 1e3
        while !flood.isFinished { usleep(10_000) }
    }
}

/// One round: every server in `kinds` is started, then each phase runs on each server in turn,
/// after all of them have gone quiet. A server that fails leaves the round; the others go on.
/// `binaries` says where each kind's programs are (chimed-compared's are another build's).
func measureRound(_ kinds: [Server.Kind], binaries: (Server.Kind) -> URL, pulse: PulseServer?, sizes: Sizes) -> [Server.Kind: Metrics] {
    var measurements = startMeasurements(kinds, binaries: binaries, pulse: pulse, sizes: sizes)
    defer { for measurement in measurements { measurement.server.stop() } }
    for phase in Measurement.phases {
        for measurement in measurements where measurement.takes(phase.name) {
            waitUntilQuiet(measurements.flatMap { [$0.server.pid, $0.server.busPID] } + [pulse?.process.pid].compactMap { $0 })
            mark(phase.name, measurement.server.kind)
            do {
                try phase.run(measurement)
            } catch {
                measurement.server.process?.pump(timeout: 0.5)
                print("  \(measurement.server.kind.rawValue) failed: \(error); it said: \(measurement.server.process?.stderr.suffix(500) ?? "")")
                measurement.server.stop()
                measurements.removeAll { $0 === measurement }
            }
        }
    }
    mark("done", nil)
    return Dictionary(uniqueKeysWithValues: measurements.map { ($0.server.kind, $0.metrics) })
}

/// Starts (and warms up) a server of each kind; one that fails to start is said and left out.
func startMeasurements(_ kinds: [Server.Kind], binaries: (Server.Kind) -> URL, pulse: PulseServer?, sizes: Sizes) -> [Measurement] {
    kinds.compactMap { kind in
        do {
            return try Measurement(kind, binaries: binaries(kind), pulse: pulse, sizes: sizes)
        } catch {
            print("  \(kind.rawValue) failed to start: \(error)")
            return nil
        }
    }
}

/// `kinds` starting at round `round`'s turn: each round starts another server first, so none is
/// always measured first.
func rotated(_ kinds: [Server.Kind], forRound round: Int) -> [Server.Kind] {
    Array(kinds[(round % kinds.count)...] + kinds[..<(round % kinds.count)])
}

/// Waits until none of `pids` (the round's servers, their buses, PulseAudio) has used CPU for
/// 200 ms (at most 30 s): what one still does after its phase (chimed's store taking a flood's
/// rows, its retired notifications told, a sound still playing) is its own cost, not the next
/// server's. CPU time counts in clock ticks, so a process busy a third of the time shows no tick
/// for 200 ms less than once in a thousand.
func waitUntilQuiet(_ pids: [pid_t], limit: Double = 30) {
    func used() -> Double { pids.map { cpuMilliseconds(of: $0) }.filter { !$0.isNaN }.reduce(0, +) }
    let deadline = nanoseconds() + UInt64(limit * 1e9)
    var last = used()
    var quietSince = nanoseconds()
    while nanoseconds() < deadline, nanoseconds() - quietSince < 200_000_000 {
        usleep(20_000)
        let now = used()
        if now != last { (last, quietSince) = (now, nanoseconds()) }
    }
}

/// With CHIME_BENCH_MARKS set, says on stderr when a phase starts on a server, in CLOCK_MONOTONIC
/// seconds ("mark SECONDS PHASE SERVER"): `perf record -k CLOCK_MONOTONIC` stamps its samples on
/// the same clock, so a profile can be cut to one phase.
func mark(_ phase: String, _ kind: Server.Kind?) {
    guard getenv("CHIME_BENCH_MARKS") != nil else { return }
    let line = "mark \(Double(nanoseconds()) / 1e9) \(phase)" + (kind.map { " \($0.rawValue)" } ?? "") + "\n"
    FileHandle.standardError.write(Data(line.utf8))
}
