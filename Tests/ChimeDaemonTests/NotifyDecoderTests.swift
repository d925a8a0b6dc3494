import Foundation
import ChimeCore
import ChimeDBus
import Testing
@testable import ChimeDaemon

@Suite struct NotifyDecoderTests {
    let decoder = NotifyDecoder()

    /// A Notify call as a client sends it.
    func arguments(summary: String = "s", body: String = "b", icon: String = "", actions: [String] = [],
                   hints: [(String, BusValue)] = []) -> Message {
        .methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                    interface: "org.freedesktop.Notifications", method: "Notify",
                    arguments: [.string("app"), .uint32(0), .string(icon), .string(summary), .string(body),
                                .stringArray(actions), .vardict(hints), .int32(-1)])
    }

    /// Every part of Notify read off the message: nested variants, image-data, a repeated hint.
    @Test func everyArgumentIsReadOffTheMessage() throws {
        let image = BusValue.structure([.int32(1), .int32(1), .int32(4), .bool(true), .int32(8), .int32(4),
                                        .bytes([1, 2, 3, 4])])
        let request = try decoder.decode(arguments(summary: "Ada", body: "<i>hi</i> there", actions: ["default", "Open", "reply", "Reply"],
                                                   hints: [("urgency", .variant(.byte(2))), ("category", .string("im.received")),
                                                           ("x-chime-thread", .string("t1")), ("image-data", image), ("urgency", .byte(0))]))
        #expect(request.appName == "app" && request.summary == "Ada" && request.body == "<i>hi</i> there")
        #expect(request.expireTimeout == -1)
        #expect(request.hints.urgency == .low, "the last of a repeated hint counts")
        #expect(request.hints.category == "im.received" && request.hints.thread == "t1")
        #expect(request.hints.imageData?.width == 1)
        #expect(request.actions.map(\.key) == ["default", "reply"])
        let wrong = Message.methodCall(destination: "x.y", path: "/", interface: "x.y", method: "Notify",
                                       arguments: [.string("app"), .string("not a uint32")])
        #expect(throws: RequestError.self) { try decoder.decode(wrong) }
    }

    /// The names an app goes by are bounded: app_name is cut to 255 bytes, and a desktop-entry
    /// that is no desktop file's name (a path, control characters, too long) is dropped, so the
    /// app name identifies the app.
    @Test func appNamesAreCutAndDesktopEntriesThatAreNoFileNameDropped() throws {
        let long = String(repeating: "a", count: 100_000)
        let named = try decoder.decode(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                  interface: "org.freedesktop.Notifications", method: "Notify",
                                                  arguments: [.string(long), .uint32(0), .string(""), .string("s"), .string("b"),
                                                              .stringArray([]), .vardict([]), .int32(-1)]))
        #expect(named.appName.utf8.count == 255 && named.appIdentity.utf8.count == 255)
        for entry in ["../../etc/passwd", "a/b", "line\nbreak", "", long] {
            let request = try decoder.decode(arguments(hints: [("desktop-entry", .string(entry))]))
            #expect(request.hints.desktopEntry == nil && request.appIdentity == "app", "\(entry.prefix(20))")
        }
        for entry in ["org.gnome.Nautilus", "firefox.desktop", "code-url-handler", "Ünïcode"] {
            #expect(try decoder.decode(arguments(hints: [("desktop-entry", .string(entry))])).appIdentity == entry)
        }
    }

    @Test func oddActionListsAreRefused() throws {
        #expect(throws: Action.unpaired(3)) { try decoder.decode(arguments(actions: ["a", "A", "b"])) }
        #expect(try decoder.decode(arguments(actions: ["a", "A"])).actions == [Action(key: "a", label: "A")])
        #expect(try decoder.decode(arguments(actions: [])).actions.isEmpty)
    }

    @Test func aWellFormedCallDecodes() throws {
        let request = try decoder.decode(arguments(body: "<b>hi</b>", actions: ["ok", "OK"],
                                                   hints: [("urgency", .byte(2))]))
        #expect(request.body == "<b>hi</b>")
        #expect(request.actions == [Action(key: "ok", label: "OK")])
        #expect(request.hints.urgency == .critical)
    }

    @Test func anOddActionListIsAnInvalidArgument() {
        #expect(throws: RequestError.self) { try decoder.decode(arguments(actions: ["a", "A", "b"])) }
    }

    @Test func aBadImagePathIsDroppedAndTheNotificationKept() throws {
        let request = try decoder.decode(arguments(icon: "/dev/zero", hints: [("image-path", .string("/dev/zero"))]))
        #expect(request.appIcon == nil && request.hints.imagePath == nil)
    }

    /// The checks of image-path and sound-file change the request after it is made: a URI becomes
    /// its path, a missing sound file goes, and what is fine stays as sent.
    @Test func checkedHintsAreWhatTheChecksMadeOfThem() throws {
        let path = temporaryFolder("decoder").appendingPathComponent("a.png").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(ImageReferenceTests.png)))
        let uri = try decoder.decode(arguments(hints: [("image-path", .string("file://" + path)),
                                                      ("sound-file", .string("/no/such/sound.oga"))]))
        #expect(uri.hints.imagePath == path)
        #expect(uri.hints.soundFile == nil)
        let plain = try decoder.decode(arguments(hints: [("image-path", .string(path)), ("category", .string("im"))]))
        #expect(plain.hints.imagePath == path && plain.hints.category == "im")
        let icon = try decoder.decode(arguments(hints: [("image_path", .string("dialog-information"))]))
        #expect(icon.hints.imagePath == "dialog-information")
    }

    @Test func hugeBodiesAreCutAtACharacterBoundary() throws {
        let body = String(repeating: "é", count: 600_000)  // 1.2 MB of two-byte characters
        let request = try decoder.decode(arguments(body: body))
        #expect(request.body.utf8.count <= NotifyLimits.bodyBytes)
        #expect(request.body.allSatisfy { $0 == "é" })
    }

    @Test func emptyBodiesAreFine() throws {
        #expect(try decoder.decode(arguments(summary: "", body: "")).body == "")
    }

    /// Actions are bounded: the first 16 are kept, labels are cut to 255 bytes, and an action
    /// whose key is over 1 KB is dropped (a key goes back to the app as it came, so it is never cut).
    @Test func actionsAreBoundedInCountAndSize() throws {
        let many = (0..<40).flatMap { ["k\($0)", "Label \($0)"] }
        let request = try decoder.decode(arguments(actions: many))
        #expect(request.actions.map(\.key) == (0..<NotifyLimits.actions).map { "k\($0)" })
        let long = String(repeating: "é", count: 1_000)
        let sized = try decoder.decode(arguments(actions: ["default", long, String(repeating: "k", count: 2_000), "Huge key", "ok", "OK"]))
        #expect(sized.actions.map(\.key) == ["default", "ok"])
        #expect(sized.actions[0].label.utf8.count <= NotifyLimits.actionLabelBytes)
        #expect(sized.actions[0].label.allSatisfy { $0 == "é" })
        #expect(try decoder.decode(arguments(actions: ["default", "Open"])).actions.map(\.label) == ["Open"])
    }

    /// Every string hint is cut to 4 KB, a string-array hint keeps 16 strings, and an app_icon
    /// longer than a path can be is dropped.
    @Test func stringHintsAreCut() throws {
        let long = String(repeating: "t", count: 100_000)
        let request = try decoder.decode(arguments(icon: "/" + long, hints: [
            ("x-chime-thread", .string(long)), ("category", .string(long)),
            ("x-kde-reply-placeholder-text", .string(long)),
            ("x-chime-destructive-actions", .stringArray((0..<100).map { "k\($0)" })),
        ]))
        #expect(request.hints.thread?.utf8.count == NotifyLimits.hintStringBytes)
        #expect(request.hints.category?.utf8.count == NotifyLimits.hintStringBytes)
        #expect(request.hints.replyPlaceholder?.utf8.count == NotifyLimits.hintStringBytes)
        #expect(request.hints.destructiveActions.count == NotifyLimits.hintStrings)
        #expect(request.appIcon == nil)
    }
}

extension NotifyDecoder {
    /// Both steps, as Intake takes them.
    func decode(_ message: Message) throws(RequestError) -> NotificationRequest {
        finish(try read(message))
    }
}
