import ChimeCore
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
    /// Then calls that carry file descriptors: how many were answered, how many chimed refused,
    /// its open files after them, in how long.
    var descriptorCalls = 3_000
    var descriptorAnswered = 0, descriptorRefused = 0
    var openFilesAfter = -1
    var descriptorSeconds = Double.nan

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
        soak.withDescriptors(client, server: server)
        // chimed checkpoints its store every 5 s and then prunes it to its limit, which writes
        // the WAL again: two rounds of that, and a write after them that starts the WAL over, is
        // the folder as it stays, not mid-burst.
        Thread.sleep(forTimeInterval: 11)
        _ = client.windowed(1, inFlight: 1, limit: 10)
        Thread.sleep(forTimeInterval: 1)
        soak.files = files(in: server.directory.appendingPathComponent("state/chime"))
        soak.stateBytes = soak.files.reduce(0) { $0 + $1.bytes }
        return soak
    }

    /// `descriptorCalls` Notify calls with 16 descriptors each in their hints, pipelined 100 at
    /// a time: the flood that once cost chimed its bus connection.
    mutating func withDescriptors(_ client: BenchClient, server: Server) {
        let null = open("/dev/null", O_RDONLY)
        defer { close(null) }
        let hints = (0..<16).map { ("x-fd-\($0)", BusValue.variant(.unixFD(0))) }
        let (before, errorsBefore) = (client.repliesSeen, client.errorsSeen)
        let start = nanoseconds()
        for index in 0..<descriptorCalls {
            client.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                               interface: "org.freedesktop.Notifications", method: "Notify",
                                               arguments: [.string("Bench"), .uint32(0), .string(""), .string("fd \(index)"), .string(""),
                                                           .stringArray([]), .vardict(hints), .int32(-1)], descriptors: [null]))
            if index % 100 == 99 { client.connection.flush() }
        }
        client.connection.flush()
        let deadline = nanoseconds() + 60_000_000_000
        while client.repliesSeen - before < descriptorCalls, nanoseconds() < deadline {
            _ = client.connection.readWriteDispatch(timeoutMilliseconds: 100)
        }
        descriptorSeconds = Double(nanoseconds() - start) / 1e9
        descriptorAnswered = client.repliesSeen - before
        descriptorRefused = client.errorsSeen - errorsBefore
        openFilesAfter = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/fd").count) ?? -1
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
        | \(descriptorCalls) calls carrying 16 file descriptors each: answered | \(descriptorAnswered) in \(format(descriptorSeconds, 1)) s | all |
        | of them refused (InvalidArgs: Notify takes no descriptors) | \(descriptorRefused) | all |
        | chimed's open files after them | \(openFilesAfter) | ≤ 100 |

        The state folder: \(files.map { "\($0.name) \(format($0.bytes / 1_048_576, 1)) MB" }.joined(separator: ", ")).

        """
    }
}
