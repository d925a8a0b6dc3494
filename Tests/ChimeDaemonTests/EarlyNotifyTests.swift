import ChimeCore
@testable import ChimeDBus
import Testing
@testable import ChimeDaemon

/// Notify on the bus thread: each call is read once into its one value, which the main thread
/// finishes and answers; nothing reads it again, and nothing is answered there but a refusal.
@Suite struct EarlyNotifyTests {
    let early = EarlyNotify(identities: SenderIdentities(address: "unix:path=/nonexistent"))

    func call(app: String = "app", replacing id: UInt32 = 0, summary: String = "Build failed", body: String = "main",
              actions: [String] = [], hints: [(String, BusValue)] = []) -> Message {
        .methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "Notify",
                    arguments: [.string(app), .uint32(id), .string(""), .string(summary), .string(body),
                                .stringArray(actions), .vardict(hints), .int32(-1)])
    }

    @Test func aCallIsReadOnceAndLeftForTheMainThreadToAnswer() throws {
        guard case .read(let carried) = early.read(call(body: "é \u{1F514}", actions: ["default", "Open"])) else {
            Issue.record("refused")
            return
        }
        let passed = try #require(carried as? EarlyNotify.Passed)
        #expect(passed.read.request.summary == "Build failed" && passed.read.request.body == "é \u{1F514}")
        #expect(passed.read.request.actions.map(\.key) == ["default"])
        #expect(passed.texts == RepeatDetector.Key(passed.read.request))
    }

    @Test func aMalformedCallIsRefusedThere() {
        guard case .refused(let error) = early.read(call(actions: ["default", "Open", "odd"])) else {
            Issue.record("not refused")
            return
        }
        #expect(error.name == BusError(Action.unpaired(3)).name)
    }
}
