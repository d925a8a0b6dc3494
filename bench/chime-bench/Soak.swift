import ChimeTestSupport
import Foundation
import Glibc

/// The soak: one chimed takes `count` notifications, one in a hundred over its limits, at most
/// 64 in flight. Its memory must level off (RSS after the last tenth against after the first)
/// and its state folder stay small, whatever an app sends for however long.
struct Soak {
    var count = 100_000
    var firstRSS = Double.nan, lastRSS = Double.nan
    var stateBytes = Double.nan
    /// Each file of the state folder and its size, largest first.
    var files: [(name: String, bytes: Double)] = []
    var seconds = Double.nan
    var answered = 0

    /// The state folder's files (the center, its logs, apps.state) and their sizes in bytes.
    static func files(in folder: URL) -> [(name: String, bytes: Double)] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])) ?? []
        return files.map { ($0.lastPathComponent, Double((try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)) }
            .sorted { $0.bytes > $1.bytes }
    }

    static func measure(binaries: URL, pulse: PulseServer?, count: Int) -> Soak {
        var soak = Soak(count: count)
        guard let server = try? Server(.chimed, binaries: binaries, pulse: pulse),
              let client = try? BenchClient(address: server.busAddress) else { return soak }
        defer { server.stop() }
        client.oversizedEvery = 100
        let tenth = count / 10
        let start = nanoseconds()
        for part in 0..<10 {
            let (_, replies) = client.windowed(tenth, inFlight: 64, limit: 300)
            soak.answered += replies.count
            guard replies.count == tenth else { break }
            if part == 0 { soak.firstRSS = memory(of: server.pid).rss }
        }
        soak.seconds = Double(nanoseconds() - start) / 1e9
        waitUntilQuiet([server.pid])
        soak.lastRSS = memory(of: server.pid).rss
        // chimed checkpoints its store every 5 s and then prunes it to its limit, which writes
        // the WAL again: two rounds of that, and a write after them that starts the WAL over (the
        // intake moves into SQLite within 250 ms), is the folder as it stays, not mid-burst.
        Thread.sleep(forTimeInterval: 11)
        _ = client.windowed(1, inFlight: 1, limit: 10)
        Thread.sleep(forTimeInterval: 1)
        soak.files = files(in: server.directory.appendingPathComponent("state/chime"))
        soak.stateBytes = soak.files.reduce(0) { $0 + $1.bytes }
        return soak
    }

    var report: String {
        """
        Soak: \(count) notifications through one chimed, one in a hundred over its limits (a 200 KB body, 40 \
        actions with 1 KB labels, 8 KB hints), at most 64 in flight; \(answered) answered in \(format(seconds, 1)) s.

        | metric | value | target |
        |---|---|---|
        | RSS after the first tenth | \(format(firstRSS / 1024, 1)) MB | |
        | RSS after all, once quiet | \(format(lastRSS / 1024, 1)) MB | |
        | that / after the first tenth | \(format(lastRSS / firstRSS)) | ≤ 1.2 |
        | state folder after all | \(format(stateBytes / 1_048_576, 1)) MB | ≤ 32 MB |

        The state folder: \(files.map { "\($0.name) \(format($0.bytes / 1_048_576, 1)) MB" }.joined(separator: ", ")).

        """
    }
}
