import ChimeTestSupport
import Foundation

/// `chimectl watch` running beside a test: what was presented, as a person at the screen
/// would have seen it. Ready once it has seen a probe notification of its own (named by its app
/// too, so it shows even when previews are hidden).
final class Watcher: @unchecked Sendable {
    let process: Subprocess

    init(bus: TestBus) throws {
        process = try bus.start(TestBus.chimectl, ["watch"])
        let client = try bus.client()
        var probe: UInt32 = 0
        let ready = client.waitUntil {
            probe = (try? client.notify(app: "watch-probe", summary: "watch-probe", timeout: 0)) ?? 0
            return process.line(timeout: 0.3) { $0.contains("watch-probe") } != nil
        }
        guard ready else { throw TestFailure("chimectl watch did not start: \(process.stderr)") }
        _ = try client.call("CloseNotification", [.uint32(probe)])
    }

    deinit { process.signal(SIGKILL) }

    /// The next presented event whose line contains `text`, as a JSON object.
    func presented(containing text: String, timeout: Double = 10) -> [String: Any]? {
        guard let line = process.line(timeout: timeout, matching: { $0.contains("\"presented\"") && $0.contains(text) }),
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["notification"] as? [String: Any]
    }

    /// Every presented event so far that mentions `text` (without waiting).
    func allPresented(containing text: String) -> [String] {
        process.pump(timeout: 0)
        return process.stdoutLines.filter { $0.contains("\"presented\"") && $0.contains(text) }
    }
}
