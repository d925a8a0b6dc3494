import Foundation
import Glibc
import Testing

/// The state folder on a small tmpfs that the test fills up: chimed goes on showing
/// notifications, says in `chimectl status` that history is not being kept, and once there is
/// room again the center has every notification it answered meanwhile, across a `kill -9`.
/// Mounting needs root; elsewhere the test says so and passes.
@Suite struct FullDiskRecoveryTests {
    @Test func whatWasAnsweredOnAFullDiskIsKeptOnceThereIsRoom() throws {
        guard getuid() == 0 else {
            print("FullDiskRecoveryTests: skipped, mounting a tmpfs needs root")
            return
        }
        let bus = try TestBus(daemon: false)
        let state = bus.directory.appendingPathComponent("state/chime").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(try bus.run("mount", ["-t", "tmpfs", "-o", "size=4m,mode=700", "tmpfs", state]).status == 0)
        defer { _ = try? bus.run("umount", ["-l", state]) }
        try bus.startDaemon()
        let client = try bus.client()
        for index in 0..<5 { _ = try client.notify(summary: "before \(index)") }
        #expect(try bus.chimectl("status").stdout.contains("history: kept"))

        // Fill the disk to its last block.
        let filler = state + "/filler"
        _ = try bus.run("dd", ["if=/dev/zero", "of=\(filler)", "bs=64k"], timeout: 30)
        var ids: [UInt32] = []
        for index in 0..<300 { ids.append(try client.notify(summary: "during \(index)", body: String(repeating: "d", count: 500))) }
        #expect(Set(ids).count == 300, "every Notify is answered, with ids of its own")
        let full = try bus.chimectl("status")
        #expect(full.stdout.contains("history: not kept"), Comment(rawValue: full.stdout))
        #expect(bus.logSays("history is not being kept"))

        // Room again: the next turn (or the next checkpoint) writes what waited.
        #expect(unlink(filler) == 0)
        _ = try client.notify(summary: "after")
        #expect(client.waitUntil(timeout: 15) { (try? bus.chimectl("status").stdout.contains("history: kept")) == true })
        #expect(bus.logSays("history is kept again"))

        let daemon = try #require(bus.daemon)
        daemon.signal(SIGKILL)
        _ = daemon.wait(timeout: 10)
        try bus.startDaemon()
        let history = try bus.client().pages("History", [("limit", .uint32(1_000))])
        let summaries = Set(history.compactMap { $0["summary"]?.string })
        #expect(summaries.filter { $0.hasPrefix("during") }.count == 300)
        #expect(summaries.contains("after") && summaries.filter { $0.hasPrefix("before") }.count == 5)
    }
}
