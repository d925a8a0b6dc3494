import ChimeTestSupport
import Foundation
import Glibc

/// `--interleaved`: sequential Notify round trips only, every server's calls interleaved in blocks
/// of `block` (a block on each server in turn), so all of them meet the same moments of the
/// machine. With `oneCPU` the client, the servers and their buses share one CPU and can only take
/// turns: what a server's own work costs then shows with little noise (two copies of one build
/// measure within about 2% of each other), which makes this the way to tell whether a change to
/// chimed made a difference. On two CPUs the servers' turns unsettle each other, and chimed's
/// ratio comes out higher than in the phased run. Returns each server's p50 in µs per round.
func measureInterleaved(_ kinds: [Server.Kind], binaries: (Server.Kind) -> URL, pulse: PulseServer?, sizes: Sizes,
                        rounds: Int, oneCPU: Bool, block: Int = 50) -> [Server.Kind: [Double]] {
    var p50s: [Server.Kind: [Double]] = [:]
    for round in 0..<rounds {
        var measurements = startMeasurements(rotated(kinds, forRound: round), binaries: binaries, pulse: pulse, sizes: sizes)
        let servers = measurements.flatMap { [$0.server.pid, $0.server.busPID] }
        waitUntilQuiet(servers + [pulse?.process.pid].compactMap { $0 })
        var samples: [ObjectIdentifier: [UInt64]] = [:]
        func measure() {
            for _ in 0..<(sizes.sequential / block) {
                for measurement in measurements {
                    do {
                        samples[ObjectIdentifier(measurement), default: []] += try measurement.sequentialBlock(block)
                    } catch {
                        print("  \(measurement.server.kind.rawValue) failed: \(error)")
                        measurement.server.stop()
                        measurements.removeAll { $0 === measurement }
                    }
                }
            }
        }
        if !oneCPU {
            measure()
        } else if !Affinity.onOneCPU([getpid()] + servers, measure) {
            print("  could not put every process on one CPU (taskset); measuring on all")
            measure()
        }
        for measurement in measurements {
            let p50 = percentile(samples[ObjectIdentifier(measurement)] ?? [], 0.5) / 1e3
            p50s[measurement.server.kind, default: []].append(p50)
            measurement.server.stop()
        }
        let line = kinds.compactMap { kind in p50s[kind]?.count == round + 1 ? "\(kind.rawValue) \(String(format: "%.1f", p50s[kind]!.last!))" : nil }
        print("  round \(round + 1): p50 µs: " + line.joined(separator: ", "))
        fflush(nil)
    }
    return p50s
}

/// The table `--interleaved` prints: each server's median p50 over the rounds, and as ratios
/// against the reference and (for chimed-compared, the other build) against chimed.
func interleavedReport(_ p50s: [Server.Kind: [Double]], kinds: [Server.Kind]) -> String {
    func ratio(_ a: Double, _ b: Double) -> String { a.isNaN || b.isNaN ? "-" : String(format: "%.3f", a / b) }
    let reference = median(p50s[.reference] ?? [])
    let chimed = median(p50s[.chimed] ?? [])
    var report = "| server | p50 µs (median of rounds) | / reference | / chimed |\n|---|---|---|---|\n"
    for kind in kinds {
        let p50 = median(p50s[kind] ?? [])
        report += "| \(kind.rawValue) | \(p50.isNaN ? "-" : String(format: "%.1f", p50)) | \(ratio(p50, reference)) | \(kind == .chimed ? "-" : ratio(p50, chimed)) |\n"
    }
    return report
}
