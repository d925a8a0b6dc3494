import ChimeCore
import Foundation
import Testing
@testable import ChimeStore

@Suite struct NotificationStoreTests {
    let folder: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-store-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func notification(_ id: UInt32, app: String = "mail", summary: String = "s") -> ChimeCore.Notification {
        let request = NotificationRequest(appName: app, summary: summary, body: "b",
                                          actions: [Action(key: "default", label: "Open")])
        return Notification(id: id, request: request, sender: ":1.1", created: .init(milliseconds: 0),
                            updated: .init(milliseconds: 0), expires: nil)
    }

    @Test func recordsSurviveReopeningAndIdsContinue() throws {
        let path = folder + "/chime.db"
        do {
            let store = try NotificationStore(path: path)
            store.record(notification(7, summary: "first"), wall: 1_000)
            store.record(notification(9, app: "chat", summary: "second"), wall: 2_000)
            store.recordClosed(7, reason: .dismissed, wall: 3_000)
        }
        let store = try NotificationStore(path: path)
        #expect(store.highestID() == 9)
        let all = store.history(.init())
        #expect(all.map { Dictionary(uniqueKeysWithValues: $0)["summary"] } == [.string("second"), .string("first")])
        let first = Dictionary(uniqueKeysWithValues: all[1])
        #expect(first["state"] == .string("dismissed") && first["close-reason"] == .uint32(2))
        #expect(first["actions"] == .stringArray(["default", "Open"]))
        #expect(store.history(.init(app: "chat")).count == 1)
        #expect(store.history(.init(state: "dismissed")).count == 1)
        #expect(store.history(.init(limit: 1)).count == 1)
        var mode = stat()
        stat(path, &mode)
        #expect(mode.st_mode & 0o777 == 0o600)
    }

    @Test func aCorruptFileIsMovedAsideAndAFreshStoreMade() throws {
        let path = folder + "/chime.db"
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x42, count: 8192))
        var said: [String] = []
        let store = try NotificationStore(path: path) { _, message in said.append(message) }
        store.record(notification(1), wall: 1)
        #expect(said.count == 1 && said[0].contains("moved it to"))
        #expect(store.history(.init()).count == 1)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("chime.db.corrupt-") }
        #expect(aside.count == 1)
    }
}
