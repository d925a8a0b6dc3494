import ChimeCore
import ChimeDBus
import ChimeTestSupport
import Foundation

/// What the panel and chimectl wait for: a control call's round trip (GetStatus), and searching
/// the center (the panel's search field, `chimectl history --search`): one chimed keeps `count`
/// notifications (`history-max`), and History is asked for a text none of them holds, which reads
/// every row, and for one every body holds, whose first page of 50 comes at once.
struct ControlCalls {
    var count = 10_000
    var stored = 0
    /// Milliseconds per History call, the median of `calls`.
    var missP50 = Double.nan, hitP50 = Double.nan, statusP50 = Double.nan
    var hits = 0
    static let calls = 21

    static func measure(binaries: URL, pulse: PulseServer?, count: Int) -> ControlCalls {
        var search = ControlCalls(count: count)
        guard let server = try? Server(.chimed, binaries: binaries, pulse: pulse, config: "[general]\nhistory-max = \(count)\n"),
              let client = try? BenchClient(address: server.busAddress) else { return search }
        defer { server.stop() }
        guard client.windowed(count, inFlight: 64, limit: 300).replies.count == count else { return search }
        func timed(_ method: String, _ arguments: [BusValue]) -> (milliseconds: Double, reply: [BusValue])? {
            let start = nanoseconds()
            guard let reply = try? client.connection.call(.methodCall(
                destination: "dev.chime.Chime1", path: "/dev/chime/Chime1", interface: "dev.chime.Chime1", method: method,
                arguments: arguments)) else { return nil }
            return (Double(nanoseconds() - start) / 1e6, reply)
        }
        func history(_ text: String) -> (milliseconds: Double, found: Int)? {
            timed("History", [.vardict([("text", .string(text)), ("limit", .uint32(50))])]).map { ($0.milliseconds, $0.reply.first?.records.count ?? 0) }
        }
        // The first call warms SQLite's page cache: not a search's cost.
        _ = history("warm-up")
        search.stored = Self.stored(client)
        var misses: [Double] = [], hits: [Double] = [], statuses: [Double] = []
        for _ in 0..<calls {
            if let status = timed("GetStatus", []) { statuses.append(status.milliseconds) }
            if let miss = history("a text nobody sent") { misses.append(miss.milliseconds) }
            if let hit = history("consectetur") {
                hits.append(hit.milliseconds)
                search.hits = hit.found
            }
        }
        search.missP50 = misses.sorted()[safe: misses.count / 2] ?? .nan
        search.hitP50 = hits.sorted()[safe: hits.count / 2] ?? .nan
        search.statusP50 = statuses.sorted()[safe: statuses.count / 2] ?? .nan
        return search
    }

    /// What the center holds, counted page by page (a page ends at 8 MiB of records).
    private static func stored(_ client: BenchClient) -> Int {
        var count = 0, after = ""
        repeat {
            var options: [(String, BusValue)] = [("limit", .uint32(10_000))]
            if !after.isEmpty { options.append(("after", .string(after))) }
            guard let reply = try? client.connection.call(.methodCall(
                destination: "dev.chime.Chime1", path: "/dev/chime/Chime1", interface: "dev.chime.Chime1", method: "History",
                arguments: [.vardict(options)])), reply.count == 2 else { break }
            count += reply[0].records.count
            after = reply[1].string ?? ""
        } while !after.isEmpty
        return count
    }

    var report: String {
        """
        Control calls, as the panel and chimectl make them: one chimed keeping \(count) notifications \
        (`history-max`; \(stored) stored), the median of \(Self.calls) calls each.

        | call | time | target |
        |---|---|---|
        | GetStatus (any control call's round trip) | \(format(statusP50, 2)) ms | |
        | History, searching a text none holds (every row read) | \(format(missP50, 1)) ms | ≤ 50 ms |
        | History, searching a text every body holds (first page, \(hits) found) | \(format(hitP50, 1)) ms | |

        """
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
