import ChimeDBus
import ChimeTestSupport
import Foundation
import Glibc

/// Notify to banner on screen (issue 37), as a person waits for it: chimed, dunst and mako each
/// under a headless sway of its own, watched by `screen-watch` (bench/screen-watch.c), which says
/// when a frame first differs from the empty screen. A sample is the time from just before the
/// Notify call to that frame; then the notification is closed and the screen awaited empty again.
/// Cold: nothing shown for longer than chimed's `idle-exit` (set to 1 s here, so that its
/// presenter has left before each cold sample; dunst and mako wait as long). Warm: the next
/// notification right after the last one's banner went.
struct BannerLatency {
    struct Figures {
        /// Nanoseconds.
        var cold: [UInt64] = [], warm: [UInt64] = []
    }

    var figures: [(name: String, figures: Figures)] = []

    static func measure(binaries: URL, kinds: [DisplayFootprint.Kind], coldSamples: Int, warmSamples: Int) -> BannerLatency {
        var latency = BannerLatency()
        for kind in kinds {
            do {
                let figures = try measure(kind, binaries: binaries, coldSamples: coldSamples, warmSamples: warmSamples)
                latency.figures.append((kind.rawValue, figures))
            } catch {
                print("note: \(kind.rawValue)'s banner latency not measured: \(error)")
            }
        }
        return latency
    }

    private static func measure(_ kind: DisplayFootprint.Kind, binaries: URL, coldSamples: Int, warmSamples: Int) throws -> Figures {
        let session = try PrivateSession(name: "latency-\(kind.rawValue)", pulse: nil)
        defer { session.stop() }
        let sway = try HeadlessSway(in: session.directory, width: 1280, height: 800)
        var env = session.environment
        env.merge(sway.environment) { _, new in new }
        env["NO_AT_BRIDGE"] = "1"
        let watch = try Subprocess(binaries.appendingPathComponent("screen-watch").path, [], environment: env)
        defer { watch.signal(SIGTERM); _ = watch.wait(timeout: 5) }
        guard watch.line(timeout: 10, matching: { $0 == "ready" }) != nil else { throw TestFailure("screen-watch did not start: \(watch.stderr)") }

        let config = session.directory.appendingPathComponent("config/chime")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[popups]\nidle-exit = 1s\n".write(to: config.appendingPathComponent("chime.conf"), atomically: true, encoding: .utf8)
        let watcher = try BenchClient(address: session.busAddress)
        try watcher.connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.freedesktop.Notifications'")
        let server = try DisplayFootprint.start(kind, binaries: binaries, environment: env)
        defer { server.signal(SIGTERM); _ = server.wait(timeout: 10); server.signal(SIGKILL) }
        guard watcher.waitForSignal("NameOwnerChanged", timeout: 30) else { throw TestFailure("\(kind) did not take the name") }

        let client = try BenchClient(address: session.busAddress)
        var figures = Figures()
        var sample = 0
        func shown(cold: Bool) throws -> UInt64 {
            let quietUntil = Date().addingTimeInterval(cold ? 1.5 : 0.05)
            while Date() < quietUntil { watch.pump(timeout: quietUntil.timeIntervalSinceNow) }
            if kind.isChime, cold {
                // Cold means no presenter: wait for it to have left.
                let goneBy = Date().addingTimeInterval(10)
                while DisplayFootprint.processes(of: server.pid).count > 1, Date() < goneBy { usleep(10_000) }
            }
            sample += 1
            let from = watch.stdoutLines.count
            let start = nanoseconds()
            let id = try client.banner("Arrived \(sample)", app: sample, timeout: 0)
            guard let shown = watch.line(from: from, timeout: 10, matching: { $0.hasSuffix(" 1") }),
                  let drawn = shown.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) else {
                throw TestFailure("no banner on screen within 10 s")
            }
            let afterShown = watch.stdoutLines.count
            _ = try client.connection.call(.methodCall(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "CloseNotification", arguments: [.uint32(id)]))
            guard watch.line(from: afterShown, timeout: 10, matching: { $0.hasSuffix(" 0") }) != nil else {
                throw TestFailure("the banner did not go within 10 s")
            }
            return drawn - start
        }
        // The first one after start-up counts for neither.
        _ = try shown(cold: false)
        for _ in 0..<coldSamples { figures.cold.append(try shown(cold: true)) }
        for _ in 0..<warmSamples { figures.warm.append(try shown(cold: false)) }
        return figures
    }

    var report: String {
        func value(_ name: String, _ samples: KeyPath<Figures, [UInt64]>, _ fraction: Double) -> Double {
            percentile(figures.first { $0.name == name }?.figures[keyPath: samples] ?? [], fraction) / 1_000_000
        }
        let counts = figures.first { $0.name == "chimed" }.map { "\($0.figures.cold.count) cold and \($0.figures.warm.count) warm" } ?? "no"
        var text = """
            Notify to banner on screen, each server under a headless sway of its own, from just before the \
            Notify call to the first frame that shows it (`bench/screen-watch.c`, wlr-screencopy); \(counts) \
            samples each. Cold: nothing shown for 1.5 s, chimed's presenter gone (`idle-exit = 1s` here); \
            warm: right after the last banner went. GTK banners: chimed with `CHIME_BANNERS=gtk`.

            | Notify to banner | chimed | chimed, GTK banners | dunst | mako | chimed / dunst | GTK banners / dunst | chimed / mako | target |
            |---|---|---|---|---|---|---|---|---|

            """
        for (label, samples, fraction, target) in [("cold p50", \Figures.cold, 0.5, "≤ 150 ms"), ("cold p99", \Figures.cold, 0.99, ""),
                                                   ("warm p50", \Figures.warm, 0.5, ""), ("warm p99", \Figures.warm, 0.99, "")] {
            let values = ["chimed", "chimed-gtk", "dunst", "mako"].map { value($0, samples, fraction) }
            let cells = values.map { format($0, 0) + " ms" }
                + [formatRatio(values[0] / values[2]), formatRatio(values[1] / values[2]), formatRatio(values[0] / values[3])]
            text += "| \(label) | " + cells.joined(separator: " | ") + " | \(target) |\n"
        }
        return text
    }
}
