import Foundation
import Glibc
import Testing

/// The state folder holds what notifications said: chimed keeps it 0700 and every file in it
/// 0600, whatever it found there (a backup restored with 0644, a folder made by hand with 0755).
@Suite struct StateFolderTests {
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func everyFileChimedKeepsIsPrivateWhateverItFound() throws {
        let bus = try TestBus(daemon: false)
        let state = bus.directory.appendingPathComponent("state/chime").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        #expect(chmod(state, 0o755) == 0)
        // As a backup restores them: readable by everyone.
        for name in ["chime.db", "apps.state"] {
            #expect(FileManager.default.createFile(atPath: state + "/" + name, contents: Data(), attributes: [.posixPermissions: 0o644]))
        }
        try bus.startDaemon()
        let client = try bus.client()
        for index in 0..<20 { _ = try client.notify(summary: "PIN \(index)") }
        _ = try client.control("SetApp", [.string("test"), .string("sounds"), .string("false")])
        #expect(Self.mode(state) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: state)
        for name in ["chime.db", "chime.db-wal", "apps.state"] { #expect(files.contains(name), "\(name) in \(files)") }
        for name in files {
            #expect(Self.mode(state + "/" + name) == 0o600, "\(name) is \(String(Self.mode(state + "/" + name), radix: 8))")
        }
    }
}

/// A client that invents an app name for every notification: apps.state stays bounded, and an
/// app the user set something for is kept.
@Suite struct InventedAppsTests {
    @Test func appsStateStaysBoundedWhateverNamesAClientInvents() throws {
        let bus = try TestBus()
        let client = try bus.client()
        _ = try client.notify(app: "Mail", timeout: 0)
        _ = try client.control("SetApp", [.string("Mail"), .string("sounds"), .string("false")])
        let count = 1_200
        for index in 0..<count {
            client.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                               interface: "org.freedesktop.Notifications", method: "Notify",
                                               arguments: TestClient.notifyArguments(app: "invented-\(index)", timeout: 0)))
        }
        #expect(client.waitUntil(timeout: 60) { client.replies.count == count })
        _ = try bus.chimectl("status")  // a turn after the flood's: its app state is saved by then
        let path = bus.directory.appendingPathComponent("state/chime/apps.state").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let apps = text.split(separator: "\n").filter { $0.hasPrefix("[app ") }
        #expect(apps.count <= 1_000, "\(apps.count) apps kept")
        #expect(apps.contains("[app Mail]"), "what the user set stays")
        #expect(apps.contains("[app invented-\(count - 1)]"), "the newest stay")
    }
}
