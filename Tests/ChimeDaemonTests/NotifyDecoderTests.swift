import ChimeCore
import Testing
@testable import ChimeDaemon

@Suite struct NotifyDecoderTests {
    let decoder = NotifyDecoder()

    func arguments(summary: String = "s", body: String = "b", icon: String = "", actions: [String] = [],
                   hints: [(String, BusValue)] = []) -> [BusValue] {
        [.string("app"), .uint32(0), .string(icon), .string(summary), .string(body),
         .stringArray(actions), .vardict(hints), .int32(-1)]
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

    @Test func hugeBodiesAreCutAtACharacterBoundary() throws {
        let body = String(repeating: "é", count: 600_000)  // 1.2 MB of two-byte characters
        let request = try decoder.decode(arguments(body: body))
        #expect(request.body.utf8.count <= NotifyDecoder.maximumBodyBytes)
        #expect(request.body.allSatisfy { $0 == "é" })
    }

    @Test func emptyBodiesAreFine() throws {
        #expect(try decoder.decode(arguments(summary: "", body: "")).body == "")
    }
}
