import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// The state folder on a small tmpfs that the test fills up: a Notify the center cannot keep is
/// refused (IOError), never answered and lost; `chimectl status` says history is not kept; once
/// there is room, Notify is answered again, and after a `kill -9` the center has every id it
/// answered. Mounting needs root; elsewhere the test says so and passes.
@Suite struct FullDiskRecoveryTests {
    @Test func whatIsAnsweredOnAFullDiskIsKeptAndTheRestRefused() throws {
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
        var answered: Set<UInt32> = []
        for index in 0..<5 { answered.insert(try client.notify(summary: "before \(index)")) }
        #expect(try bus.chimectl("status").stdout.contains("history: kept"))

        // Fill the disk to its last block.
        let filler = state + "/filler"
        _ = try bus.run("dd", ["if=/dev/zero", "of=\(filler)", "bs=64k"], timeout: 30)
        var refused = 0
        for index in 0..<300 {
            do throws(BusError) {
                answered.insert(try client.notify(summary: "during \(index)", body: String(repeating: "d", count: 500)))
            } catch {
                #expect(error.name == BusError.ioError && error.message.contains("is full"), "\(error)")
                refused += 1
            }
        }
        #expect(refused > 0, "the disk filled")
        let full = try bus.chimectl("status")
        #expect(full.stdout.contains("history: not kept"), Comment(rawValue: full.stdout))
        #expect(bus.logSays("history is not being kept"))
        let open = Set(try client.list().compactMap { $0["id"]?.integer.map(UInt32.init) })
        #expect(open.isSubset(of: answered), "what was refused is not on screen")

        // Room again: Notify is answered and kept, and once the next checkpoint (in a few
        // seconds) copies the log into the file, status says so.
        #expect(unlink(filler) == 0)
        answered.insert(try client.notify(summary: "after"))
        #expect(client.waitUntil(timeout: 15) { (try? bus.chimectl("status").stdout.contains("history: kept")) == true })
        #expect(bus.logSays("history is kept again"))

        let daemon = try #require(bus.daemon)
        daemon.signal(SIGKILL)
        _ = daemon.wait(timeout: 10)
        try bus.startDaemon()
        let history = try bus.client().pages("History", [("limit", .uint32(1_000))])
        let kept = Set(history.compactMap { $0["id"]?.integer.map(UInt32.init) })
        #expect(answered.isSubset(of: kept), "\(answered.subtracting(kept).count) answered ids are missing")
        #expect(kept.count == answered.count, "and nothing refused is there")
    }
}
