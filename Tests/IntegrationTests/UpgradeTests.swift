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
}
