import ChimeCore
import Testing
@testable import ChimeDBus

/// Signals made as copies of one made earlier: each copy is a message of its own.
@Suite struct SignalTemplatesTests {
    @Test func eachCopyCarriesItsOwnArgumentsAndDestination() {
        var templates = SignalTemplates()
        let path = "/org/freedesktop/Notifications", interface = "org.freedesktop.Notifications"
        let unicast = templates.signal(path: path, interface: interface, name: "NotificationClosed",
                                       arguments: [.uint32(7), .uint32(2)], destination: ":1.42")
        let broadcast = templates.signal(path: path, interface: interface, name: "NotificationClosed",
                                         arguments: [.uint32(8), .uint32(1)], destination: nil)
        let other = templates.signal(path: path, interface: interface, name: "ActionInvoked",
                                     arguments: [.uint32(8), .string("ok")], destination: nil)
        #expect(unicast.destination == ":1.42")
        #expect(unicast.arguments == [.uint32(7), .uint32(2)])
        // The first copy's destination and arguments did not go into the template.
        #expect(broadcast.destination == nil)
        #expect(broadcast.arguments == [.uint32(8), .uint32(1)])
        #expect(broadcast.kind == .signal && broadcast.path == path && broadcast.interface == interface)
        #expect(broadcast.member == "NotificationClosed")
        #expect(other.member == "ActionInvoked" && other.arguments == [.uint32(8), .string("ok")])
    }
}
