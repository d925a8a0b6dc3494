import ChimeTestSupport
import Foundation
import Glibc

// chime-bench: each server on its own private bus, measured the same way in one run;
// figures are reported as ratios against the reference measured in the same run.
// Usage: chime-bench BINDIR [--quick] [--compare DIR] [--only KIND,...] [--write FILE]
//        chime-bench BINDIR --interleaved [--one-cpu] [--quick] [--compare DIR] [--only KIND,...]
//        chime-bench BINDIR --search [--quick]   (control calls and the center's search alone)
//        chime-bench BINDIR --display [--only KIND,...]          (memory with a display alone: chimed, chimed-gtk, dunst, mako)
//        chime-bench BINDIR --latency [--quick] [--only KIND,...] (Notify to banner on screen alone: chimed, dunst, mako)
// KIND: reference, chimed, chimed-no-store, chimed-compared (chimed from DIR), dunst, and
// reference-20us and reference-40us (the reference with that much work of its own a Notify), and,
// only with --only, reference-thread-20us and reference-5us-thread-20us (Server.Kind).
// --interleaved measures only sequential Notify round trips, the servers' calls interleaved
// (Interleaved.swift); with --one-cpu all on one CPU, the steady way to compare two builds.

struct Sizes {
    var sequential = 5_000
    var pipelined = 20_000
    var closes = 300
    var floodWitness = 1_000
    /// Seconds a flood phase may take: dunst falls to a few notifications a second under one.
    var limit = 120.0
    static let quick = Sizes(sequential: 500, pipelined: 2_000, closes: 50, floodWitness: 100, limit: 10)
}

struct Metrics {
    var startup = Double.nan, idleRSS = Double.nan
    var p50 = Double.nan, p99 = Double.nan, imageP50 = Double.nan, imageP99 = Double.nan
    /// Notify p50 with the client, the bus and the server on one CPU.
    var oneCPUp50 = Double.nan
    var pipelined = Double.nan
    /// Throughput of the last 1,000 windowed replies against the first 1,000's.
    var growth = Double.nan
    var close50 = Double.nan, rss = Double.nan, hwm = Double.nan, floodP99 = Double.nan
    /// CPU time per pipelined notification, in µs, of the server, its dbus-daemon and the client:
    /// with two cores the three share them, so what any one spends slows the others.
    var serverCPU = Double.nan, busCPU = Double.nan, clientCPU = Double.nan
    /// Replies received of those pipelined, when the server could not answer them all in time.
    var answered: Int?
    /// The phases of sequential calls that ended early, each said in a sentence.
    var cutShort: [String] = []

    /// Each figure the median of `runs`' (the middle one of three).
    static func medians(of runs: [Metrics]) -> Metrics {
        var result = runs[runs.count / 2]
        let figures: [WritableKeyPath<Metrics, Double>] = [
            \.startup, \.idleRSS, \.p50, \.p99, \.oneCPUp50, \.imageP50, \.imageP99, \.pipelined, \.growth,
            \.close50, \.rss, \.hwm, \.floodP99, \.serverCPU, \.busCPU, \.clientCPU,
        ]
        for figure in figures { result[keyPath: figure] = median(runs.map { $0[keyPath: figure] }) }
        // A phase cut short in any round is said: its wait may be the median.
        result.cutShort = runs.flatMap(\.cutShort)
        return result
    }
}

let arguments = CommandLine.arguments.dropFirst()
let usage = "usage: chime-bench BINDIR [--quick] [--compare DIR] [--only KIND,...] [--write FILE]\n" +
    "       chime-bench BINDIR --interleaved [--one-cpu] [--quick] [--compare DIR] [--only KIND,...]"
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
// The folder comes first; an option there (a mistyped command) would start every server from it.
guard let binDir = arguments.first, !binDir.hasPrefix("-") else {
    print(usage)
    exit(2)
}
let binaries = URL(fileURLWithPath: binDir)
let quick = arguments.contains("--quick")
let sizes = quick ? Sizes.quick : Sizes()
/// `--compare DIR`: chimed from DIR too, as its own column, to see whether a change made a difference.
let comparedBinaries = arguments.firstIndex(of: "--compare").flatMap { $0 + 1 < arguments.endIndex ? URL(fileURLWithPath: arguments[$0 + 1]) : nil }
let output = arguments.firstIndex(of: "--write").flatMap { $0 + 1 < arguments.endIndex ? arguments[$0 + 1] : nil }

/// The servers `--only` names, if it does.
let onlyNames = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.endIndex ? arguments[$0 + 1] : nil }
    .map { $0.split(separator: ",").map(String.init) }
/// `--display` and `--latency` measure chimed (with chime-presenter, and with chime-banners), dunst
/// and mako, or those of them `--only` names.
let displayKinds = DisplayFootprint.Kind.allCases.filter { onlyNames?.contains($0.rawValue) ?? true }
if arguments.contains("--display") {
    // Memory with a display alone, as the full run measures it.
    print(DisplayFootprint.measure(binaries: binaries, kinds: displayKinds).report)
    exit(0)
}
let latencySamples = quick ? (cold: 3, warm: 5) : (cold: 15, warm: 30)
if arguments.contains("--latency") {
    // Notify to banner on screen alone, as the full run measures it.
    print(BannerLatency.measure(binaries: binaries, kinds: displayKinds, coldSamples: latencySamples.cold,
                                warmSamples: latencySamples.warm).report)
    exit(0)
}
var results: [Server.Kind: Metrics] = [:]
var kinds: [Server.Kind] = [.reference, .chimed, .chimedNoStore, .reference20, .reference40]
if comparedBinaries != nil { kinds.append(.compared) }
let dunstInstalled = access("/usr/bin/dunst", X_OK) == 0 && access("/usr/bin/Xvfb", X_OK) == 0
if dunstInstalled {
    // The quick smoke check leaves dunst out: it alone takes minutes under a flood.
    if !quick { kinds.append(.dunst) }
} else {
    print("note: dunst or Xvfb not installed; measuring without it")
}
if let onlyNames {
    kinds = onlyNames.map { name in
        guard let kind = Server.Kind(rawValue: name) else {
            print("chime-bench: no server called \(name); --only takes \(Server.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            exit(2)
        }
        return kind
    }
}
if kinds.contains(.compared), comparedBinaries == nil {
    print("chime-bench: chimed-compared needs --compare DIR")
    exit(2)
}
func binariesFor(_ kind: Server.Kind) -> URL { kind == .compared ? comparedBinaries ?? binaries : binaries }
if arguments.contains("--search") {
    // The center's search alone, as the full run measures it.
    print(ControlCalls.measure(binaries: binaries, pulse: nil, count: quick ? 2_000 : 10_000).report)
    exit(0)
}
let pulse = try? PulseServer()
if pulse == nil { print("note: no PulseAudio here; chimed runs without a sound server") }
/// The reference and chimed, whose ratio is the headline, chimed without its store, whose
/// difference from chimed is the store's cost, and the reference made to work, which shows what
/// a ratio means on this machine, are measured in `rounds` rounds, each phase on
/// each server in turn (`measureRound`), and each figure is the median of its rounds: a minute
/// apart, this machine's figures can differ by a tenth, and a phase of the reference and the same
/// phase of chimed seconds apart see the same machine. Each round starts with another of them.
/// dunst, far off either way and slow to recover from a flood, is measured once, alone.
let rounds = quick ? 1 : 3
/// The servers measured in rounds: all but dunst.
let inRounds = kinds.filter { $0 != .dunst }
if arguments.contains("--interleaved") {
    let oneCPU = arguments.contains("--one-cpu")
    print("measuring \(inRounds.map(\.rawValue).joined(separator: ", ")): \(sizes.sequential) sequential calls each, " +
          "interleaved in blocks of 50\(oneCPU ? ", all on one CPU" : ""), \(rounds) round\(rounds == 1 ? "" : "s")...")
    fflush(nil)
    let p50s = measureInterleaved(inRounds, binaries: binariesFor, pulse: pulse, sizes: sizes, rounds: rounds, oneCPU: oneCPU)
    pulse?.stop()
    print("")
    print(interleavedReport(p50s, kinds: inRounds))
    exit(0)
}
var runs: [Server.Kind: [Metrics]] = [:]
for round in 0..<rounds where !inRounds.isEmpty {
    let order = rotated(inRounds, forRound: round)
    print("measuring \(order.map(\.rawValue).joined(separator: ", "))\(rounds > 1 ? " (round \(round + 1) of \(rounds))" : "")...")
    fflush(nil)
    for (kind, metrics) in measureRound(order, binaries: binariesFor, pulse: pulse, sizes: sizes) {
        runs[kind, default: []].append(metrics)
    }
}
if kinds.contains(.dunst) {
    print("measuring dunst...")
    fflush(nil)
    runs[.dunst] = measureRound([.dunst], binaries: binariesFor, pulse: pulse, sizes: sizes)[.dunst].map { [$0] }
}
for (kind, measured) in runs { results[kind] = Metrics.medians(of: measured) }
/// chimed alone, once each: what a long day of notifications, some of them hostile, leaves
/// behind (the soak), and control calls against a full center.
var soak: Soak?
var controlCalls: ControlCalls?
var displayFootprint: DisplayFootprint?
var bannerLatency: BannerLatency?
if kinds.contains(.chimed) {
    let soaked = quick ? 10_000 : 100_000, kept = quick ? 2_000 : 10_000
    print("soaking chimed: \(soaked) notifications...")
    fflush(nil)
    soak = Soak.measure(binaries: binaries, pulse: pulse, count: soaked)
    print("searching a center of \(kept) notifications...")
    fflush(nil)
    controlCalls = ControlCalls.measure(binaries: binaries, pulse: pulse, count: kept)
    if !quick {
        print("measuring memory with a display: \(displayKinds.map(\.rawValue).joined(separator: ", "))...")
        fflush(nil)
        displayFootprint = DisplayFootprint.measure(binaries: binaries, kinds: displayKinds)
        print("measuring Notify to banner on screen: chimed, dunst, mako...")
        fflush(nil)
        bannerLatency = BannerLatency.measure(binaries: binaries, kinds: displayKinds, coldSamples: latencySamples.cold, warmSamples: latencySamples.warm)
    }
}
pulse?.stop()

func format(_ value: Double, _ digits: Int = 2) -> String {
    value.isNaN ? "-" : String(format: "%.\(digits)f", value)
}

/// A ratio as "1.23x"; one too small to show in two decimals as "< 0.01x" rather than "0.00x".
func formatRatio(_ value: Double) -> String {
    value > 0 && value < 0.005 ? "< 0.01x" : format(value) + "x"
}

struct Row {
    var name: String
    var unit: String
    var value: (Metrics) -> Double
    /// Better when larger (throughput) rather than smaller (time, memory).
    var higherIsBetter = false
    var target: String = ""
}

let rows: [Row] = [
    Row(name: "Notify p50", unit: "µs", value: { $0.p50 }, target: "≤ 1.3x ref"),
    Row(name: "Notify p99", unit: "µs", value: { $0.p99 }, target: "≤ 2x ref"),
    Row(name: "Notify p50, all on one CPU", unit: "µs", value: { $0.oneCPUp50 }),
    Row(name: "Notify p50, 64x64 image", unit: "µs", value: { $0.imageP50 }),
    Row(name: "Notify p99, 64x64 image", unit: "µs", value: { $0.imageP99 }),
    Row(name: "pipelined throughput (\(sizes.pipelined))", unit: "/s", value: { $0.pipelined }, higherIsBetter: true, target: "≥ 0.6x ref"),
    Row(name: "pipelined: server CPU per notification", unit: "µs", value: { $0.serverCPU }),
    Row(name: "pipelined: its dbus-daemon's CPU per notification", unit: "µs", value: { $0.busCPU }),
    Row(name: "pipelined: the client's CPU per notification", unit: "µs", value: { $0.clientCPU }),
    Row(name: "last-1000 / first-1000 throughput", unit: "ratio", value: { $0.growth }, higherIsBetter: true, target: "≥ 0.9"),
    Row(name: "CloseNotification → NotificationClosed p50", unit: "µs", value: { $0.close50 }),
    Row(name: "another client's Notify p99 during a flood", unit: "µs", value: { $0.floodP99 }),
    Row(name: "that p99 / the same server's idle p99", unit: "ratio", value: { $0.floodP99 / $0.p99 }, target: "≤ 2"),
    Row(name: "RSS idle", unit: "MB", value: { $0.idleRSS / 1024 }, target: "≤ 15 MB"),
    Row(name: "RSS after the run (VmRSS)", unit: "MB", value: { $0.rss / 1024 }, target: "≤ 40 MB"),
    Row(name: "peak RSS (VmHWM)", unit: "MB", value: { $0.hwm / 1024 }),
    Row(name: "start-up to name owned", unit: "ms", value: { $0.startup }, target: "≤ 150 ms"),
]

var report = "| metric | chimed / reference | chimed / dunst | target |\n|---|---|---|---|\n"
for row in rows {
    let chimed = results[.chimed].map(row.value) ?? .nan
    let reference = results[.reference].map(row.value) ?? .nan
    let dunst = results[.dunst].map(row.value) ?? .nan
    let isRatio = row.unit == "ratio"
    let cells = isRatio ? [format(chimed), "-"] : [formatRatio(chimed / reference), formatRatio(chimed / dunst)]
    report += "| \(row.name) | \(cells[0]) | \(cells[1]) | \(row.target) |\n"
}
/// The reference made to work, beside chimed: what a server's own work costs a round trip here.
let working = kinds.filter { $0.work != nil && results[$0] != nil }
/// "reference-20us (20 µs before its reply), reference-40us (40 µs before its reply)".
let workSaid = working.map { "\($0.rawValue) (\($0.work!.description))" }.joined(separator: ", ")
if !working.isEmpty {
    report += "\nFor scale: the reference with work of its own for each Notify (`reference-server --work`), against the plain reference in the same run: \(workSaid). Where a round trip's wakeups are dear, a server's own work can add more than itself to it.\n\n"
    report += "| server | Notify p50 / reference | on one CPU / reference |\n|---|---|---|\n"
    for kind in working + [.chimed] {
        let ratios = [\Metrics.p50, \Metrics.oneCPUp50].map { figure in
            formatRatio((results[kind]?[keyPath: figure] ?? .nan) / (results[.reference]?[keyPath: figure] ?? .nan))
        }
        report += "| \(kind.rawValue) | \(ratios[0]) | \(ratios[1]) |\n"
    }
}
let columns: [Server.Kind] = [.reference, .chimed, .chimedNoStore] + (comparedBinaries != nil ? [.compared] : []) + [.dunst] + working
report += "\nAbsolute figures (they vary by machine; compare ratios). chimed-no-store is chimed with `--no-history`: the store's cost is the difference.\n\n| metric | unit | " + columns.map(\.rawValue).joined(separator: " | ") + " |\n|---|---|" + String(repeating: "---|", count: columns.count) + "\n"
for row in rows {
    let cells = columns.map { results[$0].map(row.value).map { format($0) } ?? "-" }
    report += "| \(row.name) | \(row.unit) | " + cells.joined(separator: " | ") + " |\n"
}
for (kind, metrics) in results.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
    for sentence in metrics.cutShort { report += "\n\(kind.rawValue) \(sentence).\n" }
    if let answered = metrics.answered {
        report += "\n\(kind.rawValue) answered \(answered) of \(sizes.pipelined) pipelined calls within \(Int(sizes.limit)) s; its throughput counts those, and it has no last-1000 figure.\n"
    }
}
if let soak { report += "\n" + soak.report }
if let controlCalls { report += "\n" + controlCalls.report }
if let displayFootprint { report += "\n" + displayFootprint.report }
if let bannerLatency { report += "\n" + bannerLatency.report }
print("")
print(report)
if let output, !quick {
    var system = utsname()
    _ = uname(&system)
    let machine = withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let text = """
    # Benchmarks

    Made by `make bench` (`chime-bench BINDIR --write BENCHMARKS.md`) on \(ISO8601DateFormatter().string(from: Date())),
    \(ProcessInfo.processInfo.activeProcessorCount) cores, \(machine). Each server runs on its own private `dbus-daemon`;
    the reference, chimed, chimed-no-store and the reference made to work are measured in \(rounds) round\(rounds == 1 ? "" : "s"), each phase on each server in turn once all are idle, and each of their figures is the median of those rounds;
    the reference is `bench/reference-server.c`, which answers Notify with an id and nothing else (the bus's own
    cost)\(working.isEmpty ? "" : ", and \(workSaid) \(working.count == 1 ? "is" : "are") it with that work of its own for each Notify, measured in the sequential phases only"); dunst \(kinds.contains(.dunst) ? "runs under Xvfb with `bench/dunstrc`" : dunstInstalled ? "was not measured (`--only`)" : "was not installed"). chimed runs with its default
    config\(pulse != nil ? ", playing to a PulseAudio null sink" : ""), so past its first 20 the benchmark app is over the default
    rate limit and its notifications go quietly to the center (no banner, no Presented signal) as they would for
    any app that floods. Payload: 200-byte body (different each call, so none is merged as a repeat), two actions,
    urgency, category and desktop-entry; \(sizes.sequential) sequential calls (and as many again with the client, the
    bus and the server on one CPU, where they can only take turns), \(sizes.pipelined) pipelined (all
    sent before any reply is read; RSS after the run is measured then), and \(sizes.pipelined) more with at most 256
    in flight for last-1000 / first-1000, \(Measurement.windowedRuns) times (the run with the median ratio counts).

    \(report)
    """
    // Notes written by people (from "## Notes" on) stay across runs.
    let previous = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    let notes = previous.range(of: "\n## Notes").map { String(previous[$0.lowerBound...]) } ?? ""
    try (text + notes).write(toFile: output, atomically: true, encoding: .utf8)
    print("wrote \(output)")
}
