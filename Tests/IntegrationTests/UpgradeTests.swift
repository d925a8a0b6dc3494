@testable import ChimeStore
import ChimeTestSupport
import Foundation
import Testing

/// An upgrade from chimed 0.1.0 loses nothing 0.1.0 acknowledged, though it kept some of it in
/// logs beside the center that chimed no longer writes.
@Suite struct UpgradeTests {
    /// What 0.1.0 left when killed (Tests/Fixtures/chimed-0.1.0-killed, whose README says how it
    /// was made): notification 1 in SQLite, 2 only in its intake log, 3 only in its call log.
    static let killedZeroOneZero = TestBus.packageRoot.appendingPathComponent("Tests/Fixtures/chimed-0.1.0-killed")

    static func stateAsZeroOneZeroLeftIt(_ bus: TestBus) throws -> String {
        let state = bus.directory.appendingPathComponent("state/chime").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: killedZeroOneZero.path) where name != "README.md" {
            try FileManager.default.copyItem(atPath: killedZeroOneZero.appendingPathComponent(name).path, toPath: state + "/" + name)
        }
        return state
    }

    @Test func whatZeroOneZeroAnsweredIsInTheCenterUnderItsIDs() throws {
        let bus = try TestBus(daemon: false)
        let state = try Self.stateAsZeroOneZeroLeftIt(bus)
        try bus.startDaemon()
        let history = { try bus.chimectl("history").stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return "\(fields.first ?? "") \(fields.last ?? "")"
        } }
        #expect(try history() == ["3 Only in the call journal", "2 Only in the intake", "1 Kept before"])
        // chimed's log is written by a thread of its own: waited for.
        #expect(try bus.client().waitUntil {
            bus.daemonLog.contains("put 2 notification(s) into the center that chimed 0.1.0 had answered before it stopped")
        }, "\(bus.daemonLog)")
        let files = try FileManager.default.contentsOfDirectory(atPath: state).sorted()
        #expect(files == ["apps.state", "chime.db", "chime.db-wal", "ids"], "0.1.0's logs are gone once the center has them: \(files)")
        // Past every id 0.1.0 reserved (its mark said 1001).
        #expect(try bus.run("notify-send", ["-p", "after the upgrade", "x"]).stdout == "1002")
        // The logs are read once: a restart puts nothing in again.
        try bus.restartChimed()
        #expect(try history() == ["1002 after the upgrade", "3 Only in the call journal", "2 Only in the intake", "1 Kept before"])
        #expect(!bus.daemonLog.contains("0.1.0"), "\(bus.daemonLog)")
    }

    /// A call in 0.1.0's call log that is not a Notify (its bytes damaged past what the checksum
    /// covers, or another message) is dropped and said in chimed's log; the rest come back.
    @Test func aCallThatIsNotANotifyIsDroppedAndSaid() throws {
        let bus = try TestBus(daemon: false)
        let state = try Self.stateAsZeroOneZeroLeftIt(bus)
        func bytes<T: FixedWidthInteger>(_ number: T) -> [UInt8] { withUnsafeBytes(of: number.littleEndian, Array.init) }
        let sender = Array(":1.9".utf8), garbage = Array("not a D-Bus message".utf8)
        let payload = bytes(Int64(3)) + bytes(UInt16(4)) + [1] + bytes(Int64(4)) + [2] + bytes(UInt32(sender.count)) + sender
            + [1] + bytes(Int64(1_796_631_346_000)) + [4] + bytes(UInt32(garbage.count)) + garbage
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: state + "/chime.db-calls"))
        try log.seekToEnd()
        try log.write(contentsOf: Data(bytes(UInt32(payload.count)) + bytes(OlderLogs.checksum(payload)) + payload))
        try log.close()
        try bus.startDaemon()
        #expect(try bus.client().waitUntil {
            bus.daemonLog.contains("dropped notification 4 from \(state)/chime.db-calls, which chimed 0.1.0 had answered: it is not a Notify call")
        }, "\(bus.daemonLog)")
        let ids = try bus.chimectl("history").stdout.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) }
        #expect(ids == ["3", "2", "1"])
        #expect(!FileManager.default.fileExists(atPath: state + "/chime.db-calls"))
    }
}
