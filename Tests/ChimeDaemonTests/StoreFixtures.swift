import ChimeCore
import ChimeControl
import Foundation

/// A new, empty folder of its own under the temporary directory, for one test's files.
func temporaryFolder(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(name)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A notification as the store records it: one action, the times at zero.
func storedNotification(_ id: UInt32, app: String = "mail", summary: String = "s", body: String = "b") -> ChimeCore.Notification {
    let request = NotificationRequest(appName: app, summary: summary, body: body, actions: [Action(key: "default", label: "Open")])
    return Notification(id: id, request: request, sender: ":1.1", created: .init(milliseconds: 0),
                        updated: .init(milliseconds: 0), expires: nil)
}

/// A center entry as the control interface's record carries it, by key.
func record(_ entry: CenterEntry) -> [String: BusValue] {
    Dictionary(NotificationRecord.entries(entry), uniquingKeysWith: { _, last in last })
}
