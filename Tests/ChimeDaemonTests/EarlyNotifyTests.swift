import CDBus
import ChimeCore
@testable import ChimeDBus
import ChimeStore
import Foundation
import Testing
@testable import ChimeDaemon

/// Notify on the bus thread: each call is read once into its one value, which decides whether
/// it may be answered at once and which the main thread finishes; nothing reads it again.
@Suite struct EarlyNotifyTests {
    let early = EarlyNotify(ids: IDSequence(after: 10), identities: SenderIdentities(address: "unix:path=/nonexistent"))

    func call(app: String = "app", replacing id: UInt32 = 0, summary: String = "Build failed", body: String = "main",
              actions: [String] = [], hints: [(String, BusValue)] = []) -> Message {
        .methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "Notify",
                    arguments: [.string(app), .uint32(id), .string(""), .string(summary), .string(body),
                                .stringArray(actions), .vardict(hints), .int32(-1)])
    }

    func passed(_ answer: EarlyAnswer) throws -> EarlyNotify.Passed { try #require(answer.carried as? EarlyNotify.Passed) }

    @Test func aNewNotificationIsAnsweredAtOnceAndCarriesItsOneReading() throws {
        let answer = early.answer(call(body: "é \u{1F514}", actions: ["default", "Open"]))
        guard case .success(let reply)? = answer.reply else { Issue.record("not answered: \(answer)"); return }
        let passed = try passed(answer)
        #expect(reply == [.uint32(11)] && passed.id == 11)
        #expect(passed.read.request.summary == "Build failed" && passed.read.request.actions.map(\.key) == ["default"])
        #expect(passed.texts == RepeatDetector.Key(passed.read.request))
    }

    @Test func whatMayReplaceOrCarriesChimesFilesIsLeftToTheMainThread() throws {
        var leftOver = [call(replacing: 3)]
        leftOver += NotificationHints.stackTagNames.map { call(hints: [($0.text, .variant(.string("volume")))]) }
        leftOver.append(call(hints: [("x-chime-attachments", .variant(.array(elementSignature: "a{sv}",
                                                                              [.vardict([("uri", .variant(.string("/tmp/x.png")))])])))]))
        for message in leftOver {
            let answer = early.answer(message)
            #expect(answer.reply == nil)
            #expect(try passed(answer).id == nil)
        }
        // KDE's files are dropped when they fail, never refused: answered at once.
        #expect(early.answer(call(hints: [("x-kde-urls", .variant(.stringArray(["file:///tmp/x.png"])))])).reply != nil)
    }

    @Test func aMalformedCallIsRefusedThere() {
        guard case .failure(let error)? = early.answer(call(actions: ["default", "Open", "odd"])).reply else {
            Issue.record("not refused")
            return
        }
        #expect(error.name == BusError(Action.unpaired(3)).name)
    }

    /// The journal keeps the call as it came; read back after a crash, it decodes as it did.
    @Test func theJournalKeepsTheCallToBeReadBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString)-calls").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try #require(CallJournal(path: path))
        early.keep(in: journal)
        let sent = call(summary: "kept")
        dbus_message_set_serial(sent.raw, 7)  // as a call that came over the bus has
        _ = early.answer(sent)
        let kept = try #require(journal.unsettled().first)
        let message = try #require(Message(marshalled: kept.bytes))
        #expect(try NotifyDecoder().decode(message).summary == "kept")
    }
}
