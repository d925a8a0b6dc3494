import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Each bad input goes over the bus; then chimed must still answer and another client must be unaffected.
@Suite struct BadInputTests {
    let bus: TestBus
    init() throws { bus = try TestBus() }

    /// The daemon answers and a well-behaved client still gets its notification through.
    func expectHealthy() throws {
        let other = try bus.client()
        let id = try other.notify(app: "bystander", summary: "still here")
        #expect(try other.list().contains { $0["id"] == .uint32(id) })
        #expect(bus.daemon?.isRunning == true)
    }

    func refusal(_ arguments: [BusValue], method: String = "Notify") throws -> BusError? {
        let client = try bus.client()
        do throws(BusError) {
            _ = try client.call(method, arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func aWrongSignatureGetsInvalidArgs() throws {
        let error = try #require(try refusal([.string("a"), .string("b")]))
        #expect(error.name == BusError.invalidArgs)
        #expect(error.message == "Notify takes arguments (susssasa{sv}i), got (ss)")
        try expectHealthy()
    }

    /// After a good Notify the server goes straight to the same handler for the next call like it;
    /// a call that differs in its arguments, interface or path must not be taken for one.
    @Test func aCallLikeTheLastInAllButOnePartIsNotTakenForIt() throws {
        let client = try bus.client()
        _ = try client.notify(summary: "first")
        func refused(_ arguments: [BusValue], interface: String = "org.freedesktop.Notifications",
                     path: String = "/org/freedesktop/Notifications") -> BusError? {
            do throws(BusError) {
                _ = try client.call("Notify", arguments, interface: interface, path: path)
                return nil
            } catch {
                return error
            }
        }
        #expect(refused([.string("a"), .string("b")])?.message == "Notify takes arguments (susssasa{sv}i), got (ss)")
        #expect(refused(TestClient.notifyArguments(), interface: "org.example.Other")?.name == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(refused(TestClient.notifyArguments(), path: "/org/example")?.name == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(refused(TestClient.notifyArguments()) == nil)
        try expectHealthy()
    }

    @Test func anOddActionsArrayGetsInvalidArgs() throws {
        let error = try #require(try refusal(TestClient.notifyArguments(actions: ["a", "A", "b"])))
        #expect(error.name == BusError.invalidArgs)
        #expect(error.message.contains("odd number"))
        try expectHealthy()
    }

    @Test func urgencyAsAStringIsDeliveredAsNormal() throws {
        let client = try bus.client()
        let id = try client.notify(hints: [("urgency", .string("critical"))])
        #expect(try client.list().first { $0["id"] == .uint32(id) }?["urgency"] == .byte(1))
        #expect(bus.daemon?.line(onStderr: true, timeout: 5) { $0.contains("hint 'urgency' must be an integer") } != nil)
        try expectHealthy()
    }

    static func imageData(width: Int32, height: Int32, rowstride: Int32, bytes: Int) -> BusValue {
        .structure([.int32(width), .int32(height), .int32(rowstride), .bool(true), .int32(8), .int32(4),
                    .bytes([UInt8](repeating: 7, count: bytes))])
    }

    @Test(arguments: [
        BadInputTests.imageData(width: 64, height: 64, rowstride: 256, bytes: 1000),     // count != height x rowstride
        BadInputTests.imageData(width: -64, height: 64, rowstride: 256, bytes: 16384),   // negative width
        BadInputTests.imageData(width: 64, height: -5, rowstride: 256, bytes: 16384),    // negative height
        BadInputTests.imageData(width: Int32.max, height: Int32.max, rowstride: Int32.max, bytes: 16), // huge
    ])
    func invalidImageDataIsDroppedAndTheNotificationDelivered(image: BusValue) throws {
        let client = try bus.client()
        let id = try client.notify(summary: "with image", hints: [("image-data", image)])
        let listed = try #require(try client.list().first { $0["id"] == .uint32(id) })
        #expect(listed["image-data"] == nil)
        #expect(listed["summary"]?.string == "with image")
        try expectHealthy()
    }

    @Test func validImageDataIsKept() throws {
        let client = try bus.client()
        let id = try client.notify(hints: [("image-data", Self.imageData(width: 64, height: 64, rowstride: 256, bytes: 16384))])
        #expect(try client.list().first { $0["id"] == .uint32(id) }?["image-data"] != nil)
    }

    /// Through the bus, as a client marshals them: hints Chime does not read, of many shapes and
    /// under keys of every length mod 8 (so each value ends at every offset), are stepped over
    /// where they lie in the message, and the ones it reads around them all arrive. Every way of
    /// stepping wrong is checked in ArgumentReaderTests.
    @Test func hintsAmongUnknownOnesOfEveryShapeArrive() throws {
        let client = try bus.client()
        for padding in 0..<8 {
            let other = "x-vendor" + String(repeating: "-", count: padding)
            let id = try client.notify(summary: "among others \(padding)", hints: [
                (other + "s", .structure([.byte(1), .int64(-2), .stringArray(["a", "bc"]), .signature("ai"), .int16(-3)])),
                ("category", .string("email.arrived")),
                (other + "d", .vardict([("k", .variant(.double(1.5))), ("l", .bytes([9, 9, 9]))])),
                ("x-chime-thread", .string("family")),
                (other + "v", .variant(.variant(.uint16(7)))),
                ("image-data", Self.imageData(width: 4, height: 4, rowstride: 16, bytes: 64)),
                (other + "y", .bytes([1, 2, 3, 4, 5])),
                ("desktop-entry", .string("org.example.Mail")),
                (other + "g", .signature("a{sv}")),
                ("x-dunst-stack-tag", .string("inbox")),
                (other + "t", .string("some text")),
                ("x-kde-reply-placeholder-text", .string("Reply")),
                (other + "b", .byte(3)),
                (other + "q", .structure([.byte(1), .uint16(0xFFFF), .signature("x"), .byte(2), .string("end")])),
                ("x-kde-reply-submit-button-text", .string("Send")),
            ])
            let listed = try #require(try client.list().first { $0["id"] == .uint32(id) })
            #expect(listed["category"]?.string == "email.arrived", "\(padding)")
            #expect(listed["thread"]?.string == "family", "\(padding)")
            #expect(listed["desktop-entry"]?.string == "org.example.Mail", "\(padding)")
            #expect(listed["stack-tag"]?.string == "inbox", "\(padding)")
            #expect(listed["image-data"] != nil, "\(padding)")
            #expect(listed["reply-placeholder"]?.string == "Reply" && listed["reply-submit-text"]?.string == "Send", "\(padding)")
        }
        try expectHealthy()
    }

    @Test func badImagePathsAreDroppedWithoutBlocking() throws {
        let fifo = bus.directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let big = bus.directory.appendingPathComponent("big.png").path
        _ = FileManager.default.createFile(atPath: big, contents: Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(truncate(big, 50 * 1024 * 1024) == 0)
        let client = try bus.client()
        for path in [fifo, "/dev/zero", big, bus.directory.appendingPathComponent("missing.png").path] {
            let id = try client.notify(icon: path, summary: path, hints: [("image-path", .string(path))])
            let listed = try #require(try client.list().first { $0["id"] == .uint32(id) })
            #expect(listed["image-path"] == nil, "\(path)")
            #expect(listed["app-icon"] == nil, "\(path)")
        }
        try expectHealthy()
    }

    @Test func emptyAndOneMegabyteBodiesAreDelivered() throws {
        let client = try bus.client()
        let empty = try client.notify(summary: "", body: "")
        let huge = try client.notify(body: String(repeating: "x", count: 1024 * 1024))
        let list = try client.list()
        #expect(list.first { $0["id"] == .uint32(empty) }?["body"]?.string == "")
        #expect(list.first { $0["id"] == .uint32(huge) }?["body"]?.string?.utf8.count == 64 * 1024)
        try expectHealthy()
    }

    @Test func malformedMarkupIsShownAsText() throws {
        let client = try bus.client()
        let id = try client.notify(body: "<b><i>crossed</b></i> & <unknown")
        #expect(try client.list().first { $0["id"] == .uint32(id) }?["body"]?.string
            == "&lt;b&gt;&lt;i&gt;crossed&lt;/b&gt;&lt;/i&gt; &amp; &lt;unknown")
        try expectHealthy()
    }

    @Test func aClientThatVanishesRightAfterNotifyLosesNothing() throws {
        do {
            let leaving = try bus.client()
            leaving.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "orphan", timeout: 0)))
            leaving.connection.flush()
        }  // the connection closes here, before the reply arrives
        let client = try bus.client()
        #expect(client.waitUntil { (try? client.list())?.contains { $0["summary"]?.string == "orphan" } == true })
        try expectHealthy()
    }

    @Test func tenThousandPipelinedNotifyCallsAreAllAnswered() throws {
        let flooder = try bus.client()
        let count = 10_000
        for index in 0..<count {
            flooder.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "flood \(index)", body: "b")))
        }
        // Another client is served while the flood is in flight.
        try expectHealthy()
        #expect(flooder.waitUntil(timeout: 120) { flooder.replies.count == count })
        let ids = Set(flooder.replies.compactMap { $0.arguments.first?.integer })
        #expect(ids.count == count, "every call got its own id")
        #expect(flooder.replies.allSatisfy { $0.kind == .methodReturn })
        try expectHealthy()
    }

    /// chimed's stderr is a pipe nobody empties (as a parent that never reads, a journal that
    /// falls behind, a terminal paused with Ctrl-S): thousands of warnings, each of its own, fill
    /// it; the log waits on a thread of its own and drops what does not fit, and every Notify is
    /// still answered. (The test reads none of chimed's stderr until the end.)
    @Test func aStderrNobodyReadsNeverStopsChimed() throws {
        let client = try bus.client()
        let long = String(repeating: "w", count: 900)
        for index in 0..<2_000 {
            _ = try client.notify(app: "app\(index)", summary: "warned", hints: [("category", .uint32(UInt32(index))), ("x-chime-thread", .string(long))])
        }
        try expectHealthy()
        // Said once the writer can write again, which reading its stderr here lets it do.
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("log line(s) dropped") } != nil)
    }
}
