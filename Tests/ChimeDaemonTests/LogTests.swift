@testable import ChimeDaemon
@testable import ChimeGLib
import Dispatch
import Testing

/// chimed's log from several threads at once, as the tests decode notifications in parallel.
@Suite struct LogTests {
    /// Eight threads saying the same forty keys at once: each is said, and the set of said keys
    /// holds. Unguarded, the set was corrupted and a test run crashed (signal 11).
    @Test func warningOnceHoldsUpFromManyThreadsAtOnce() {
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for round in 0..<20_000 { Log.warningOnce(key: "log-test-\(round % 40)", "log test \(round % 40): said once") }
        }
        #expect(Log.hasSaid("log-test-0") && Log.hasSaid("log-test-39") && !Log.hasSaid("log-test-40"))
    }
}
