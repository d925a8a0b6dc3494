import CDBus
import ChimeCore
import Foundation
import Testing
@testable import ChimeDBus

/// What a sandboxed app reaches. Flatpak's bus proxy lets an app with `--talk-name=org.freedesktop.Notifications`
/// call the connection that owns that name, and nothing else: that connection must answer only the
/// notification service, never the control interface's history, replies, invocations or settings.
@Suite struct SandboxReachTests {
    let bus: TestBus
    init() throws { bus = try TestBus() }

    /// Calls that would read history, act for the user or change settings, addressed as a
    /// sandbox can address them: to the notification service's name.
    static let controlCalls: [(path: String, interface: String?, method: String, arguments: [BusValue])] = [
        ("/dev/chime/Chime1", "dev.chime.Chime1", "List", [.vardict([])]),
        ("/dev/chime/Chime1", "dev.chime.Chime1", "History", [.vardict([])]),
        ("/dev/chime/Chime1", "dev.chime.Chime1", "Reply", [.uint32(1), .string("forged")]),
        ("/dev/chime/Chime1", "dev.chime.Chime1", "InvokeWithToken", [.uint32(1), .string(""), .string("forged")]),
        ("/dev/chime/Chime1", "dev.chime.Chime1", "SetApp", [.string("test"), .string("critical-alerts"), .string("true")]),
        ("/dev/chime/Chime1", nil, "GetStatus", []),
        ("/org/freedesktop/Notifications", nil, "History", [.vardict([])]),
        ("/dev/chime/Chime1", "org.freedesktop.DBus.Properties", "GetAll", [.string("dev.chime.Chime1")]),
    ]

    @Test func theNotificationServiceAnswersNoControlCall() throws {
        let sandboxed = try bus.client()
        let id = try sandboxed.notify(app: "test", summary: "PIN 4711", actions: ["default", "Open"])
        for call in Self.controlCalls {
            let message = Message(owning: dbus_message_new_method_call("org.freedesktop.Notifications", call.path,
                                                                       call.interface, call.method)!)
            MessageWriter.append(call.arguments, to: message.raw)
            let result = Result { () throws(BusError) in try sandboxed.connection.call(message, timeoutMilliseconds: 5_000) }
            guard case .failure(let error) = result else {
                Issue.record("\(call.method) at \(call.path) was answered on the notification service: \(result)")
                continue
            }
            // Properties says InvalidArgs for an interface that is not there.
            #expect(error.name.hasPrefix("org.freedesktop.DBus.Error.Unknown") || error.name == BusError.invalidArgs, Comment(rawValue: "\(call.method): \(error.name) \(error.message)"))
        }
        // Nothing the calls tried happened, and the control interface still answers under its own name.
        let list = try bus.client().list()
        #expect(list.map(\.["id"]) == [.uint32(id)])
        #expect(try bus.client().control("GetApp", [.string("test")]).first?.vardictEntries?["critical-alerts"] == .string("false"))
    }

    @Test func theNotificationServiceIntrospectsOnlyItsOwnInterface() throws {
        let client = try bus.client()
        let root = try client.call("Introspect", [], interface: "org.freedesktop.DBus.Introspectable", path: "/").first?.string ?? ""
        #expect(root.contains("<node name=\"org\"/>"))
        #expect(!root.contains("<node name=\"dev\"/>"))
        let control = try client.call("Introspect", [], interface: "org.freedesktop.DBus.Introspectable",
                                      path: "/dev/chime/Chime1").first?.string ?? ""
        #expect(!control.contains("dev.chime.Chime1"))
    }

    @Test func theTwoNamesAreOwnedByTwoConnectionsOfOneProcess() throws {
        let client = try bus.client()
        func owner(_ name: String) throws -> String {
            try client.connection.busCall("GetNameOwner", [.string(name)]).first?.string ?? ""
        }
        func pid(_ unique: String) throws -> BusValue? {
            try client.connection.busCall("GetConnectionUnixProcessID", [.string(unique)]).first
        }
        let notifications = try owner("org.freedesktop.Notifications")
        let control = try owner("dev.chime.Chime1")
        #expect(notifications != control)
        #expect(try pid(notifications) == pid(control))
    }
}
