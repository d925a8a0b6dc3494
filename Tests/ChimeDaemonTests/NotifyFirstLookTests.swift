import CDBus
import ChimeCore
@testable import ChimeDBus
import Testing
@testable import ChimeDaemon

/// What the bus thread reads of a Notify before answering it agrees with what the decoder makes
/// of it on the main thread.
@Suite struct NotifyFirstLookTests {
    let decoder = NotifyDecoder()

    func call(app: String = "app", replacing id: UInt32 = 0, summary: String = "Build failed", body: String = "main",
              actions: [String] = [], hints: [(String, BusValue)] = []) -> Message {
        .methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "Notify",
                    arguments: [.string(app), .uint32(id), .string(""), .string(summary), .string(body),
                                .stringArray(actions), .vardict(hints), .int32(-1)])
    }

    @Test func theKeyOfItsTextsIsTheDecodersForTheAppItNames() throws {
        for message in [call(), call(hints: [("desktop-entry", .variant(.string("org.example.CI")))]),
                        call(body: "é \u{1F514}", actions: ["default", "Open"])] {
            let look = try NotifyFirstLook(message)
            #expect(look.texts == RepeatDetector.Key(try decoder.decode(message)))
            #expect(!look.replaces)
        }
        #expect(try NotifyFirstLook(call(hints: [("desktop-entry", .variant(.string("org.example.CI")))])).texts
                != NotifyFirstLook(call()).texts, "another app")
    }

    @Test func aReplacesIdOrAStackTagMayReplace() throws {
        #expect(try NotifyFirstLook(call(replacing: 3)).replaces)
        for tag in NotificationHints.stackTagNames {
            #expect(try NotifyFirstLook(call(hints: [(tag.text, .variant(.string("volume")))])).replaces, "\(tag.text)")
        }
    }

    @Test func itRefusesWhatTheDecoderRefuses() {
        let unpaired = call(actions: ["default", "Open", "odd"])
        #expect(throws: Action.unpaired(3)) { try NotifyFirstLook(unpaired) }
        #expect(throws: Action.unpaired(3)) { try decoder.decode(unpaired) }
    }

    @Test func itKeepsTheCallsBytesToBeReadBack() throws {
        let sent = call(summary: "kept")
        dbus_message_set_serial(sent.raw, 7)  // as a call that came over the bus has
        let look = try NotifyFirstLook(sent)
        let message = try #require(Message(marshalled: Array(look.call.messageBytes)))
        #expect(try decoder.decode(message).summary == "kept")
        #expect(try decoder.decode(look.call).summary == "kept", "the main thread reads the call from its start")
    }
}
