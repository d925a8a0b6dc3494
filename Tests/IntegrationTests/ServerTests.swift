import CDBus
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeDBus

/// The freedesktop server as real clients see it, on a private bus.
@Suite struct ServerTests {
    let bus: TestBus
    init() throws { bus = try TestBus() }

    @Test func serverInformationSaysChimeAndSpec13() throws {
        let result = try bus.run("gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                                           "--object-path", "/org/freedesktop/Notifications",
                                           "--method", "org.freedesktop.Notifications.GetServerInformation"])
        #expect(result.status == 0)
        #expect(result.stdout == "('Chime', 'Chime', '\(ChimeVersion.string)', '1.3')")
    }

    /// The interface field is optional in a method call: the method is then found by name alone.
    @Test func aCallWithoutAnInterfaceReachesTheMethodOfThatName() throws {
        let client = try bus.client()
        func call(_ method: String) throws(BusError) -> [BusValue] {
            let message = Message(owning: dbus_message_new_method_call("org.freedesktop.Notifications",
                                                                       "/org/freedesktop/Notifications", nil, method)!)
            #expect(message.interface == nil)
            return try client.connection.call(message)
        }
        #expect(try call("GetServerInformation") == [.string("Chime"), .string("Chime"), .string(ChimeVersion.string), .string("1.3")])
        #expect(try call("Introspect").first?.string?.contains("<interface name=\"org.freedesktop.Notifications\">") == true)
        #expect(throws: BusError.self) { try call("NoSuchMethod") }
    }

    @Test func capabilitiesAreDeclaredWithVendorPrefixes() throws {
        let reply = try bus.client().call("GetCapabilities", [])
        let capabilities = try #require(reply.first?.strings)
        for expected in ["actions", "body", "body-markup", "inline-reply", "persistence", "sound", "x-canonical-private-synchronous", "x-dunst-stack-tag"] {
            #expect(capabilities.contains(expected))
        }
        #expect(!capabilities.contains("synchronous"))
    }

    @Test func introspectionIsTheXmlFromTheDbusFolder() throws {
        let xml = try bus.client().call("Introspect", [], interface: "org.freedesktop.DBus.Introspectable").first?.string
        let file = try String(contentsOf: TestBus.packageRoot.appendingPathComponent("dbus/org.freedesktop.Notifications.xml"), encoding: .utf8)
        let element = try #require(file.firstRange(of: "<interface").map { String(file[$0.lowerBound...]) })
        let expected = String(element[..<element.firstRange(of: "</interface>")!.upperBound])
        #expect(xml?.contains(expected) == true)
        let root = try bus.run("gdbus", ["introspect", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/"])
        #expect(root.stdout.contains("node org"))
    }

    @Test func notifySendGetsIncreasingIds() throws {
        let first = try bus.run("notify-send", ["-p", "One", "first"])
        let second = try bus.run("notify-send", ["-p", "Two", "second"])
        #expect(first.status == 0 && second.status == 0)
        #expect(Int(first.stdout) == 1)
        #expect(Int(second.stdout) == 2)
    }

    @Test func notifySendReplaceKeepsTheIdAndReplacesInPlace() throws {
        let id = try bus.run("notify-send", ["-p", "Download", "10%"]).stdout
        let again = try bus.run("notify-send", ["-p", "-r", id, "Download", "90%"]).stdout
        #expect(again == id)
        let list = try bus.client().list()
        #expect(list.count == 1)
        #expect(list.first?["body"]?.string == "90%")
    }

    @Test func stackTagsReplaceWithinAnApp() throws {
        let client = try bus.client()
        let tag: [(String, BusValue)] = [("x-dunst-stack-tag", .string("volume"))]
        let first = try client.notify(app: "volume", summary: "10%", hints: tag)
        let second = try client.notify(app: "volume", summary: "20%", hints: tag)
        let other = try client.notify(app: "brightness", summary: "50%", hints: tag)
        #expect(first == second)
        #expect(other != first)
        #expect(try client.list().count == 2)
    }

    @Test func unknownOrClosedReplacesIdGetsAFreshId() throws {
        let client = try bus.client()
        let id = try client.notify(replaces: 4242)
        #expect(id == 1)
        _ = try client.call("CloseNotification", [.uint32(id)])
        #expect(try client.notify(replaces: id) == 2)
    }

    @Test func closeNotificationEmitsReason3AndUnknownIdsGetAnError() throws {
        let client = try bus.client()
        try client.listen()
        let id = try client.notify()
        _ = try client.call("CloseNotification", [.uint32(id)])
        #expect(client.waitUntil { !client.signals(named: "NotificationClosed").isEmpty })
        #expect(client.signals(named: "NotificationClosed").first?.arguments == [.uint32(id), .uint32(3)])
        #expect(throws: BusError.self) { try client.call("CloseNotification", [.uint32(id)]) }
    }

    /// `gdbus call` with the given method and arguments, as a script would run it.
    func gdbus(_ method: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try bus.run("gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                              "--object-path", "/org/freedesktop/Notifications",
                              "--method", "org.freedesktop.Notifications." + method] + arguments)
    }

    /// The boundary is the sandbox (design section 14): a script's `gdbus` closes and replaces
    /// what its `notify-send -p` sent, as on dunst and mako; a Flatpak app may neither, whatever
    /// desktop entry it claims, and a host program may not touch the Flatpak app's.
    @Test func closeAndReplaceStopAtTheSandbox() throws {
        let sent = try bus.run("notify-send", ["-p", "-a", "script", "-t", "0", "build running"])
        let id = sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let replaced = try gdbus("Notify", ["script", id, "", "build done", "", "[]", "{}", "0"])
        #expect(replaced.status == 0 && replaced.stdout.contains("(uint32 \(id),)"), "\(replaced)")
        let owner = try bus.client()
        #expect(try owner.list().first { $0["id"]?.uint32 == UInt32(id) }?["summary"]?.string == "build done")

        let mine = try owner.notify(app: "mail", summary: "mine", hints: [("desktop-entry", .string("org.gnome.Evolution"))], timeout: 0)
        let gdbusArgs = ["call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                         "--method"]
        let close = try bus.runSandboxed(appID: "org.gnome.Evolution", "/usr/bin/gdbus",
                                         gdbusArgs + ["org.freedesktop.Notifications.CloseNotification", "\(mine)"])
        #expect(close.status != 0 && close.stderr.contains(BusError.accessDenied), "\(close)")
        let replace = try bus.runSandboxed(appID: "org.gnome.Evolution", "/usr/bin/gdbus", gdbusArgs + [
            "org.freedesktop.Notifications.Notify", "mail", "\(mine)", "", "theirs", "", "[]", "{'desktop-entry': <'org.gnome.Evolution'>}", "0"])
        #expect(replace.status != 0 && replace.stderr.contains(BusError.accessDenied), "\(replace)")
        #expect(try owner.list().first { $0["id"]?.uint32 == mine }?["summary"]?.string == "mine")

        let theirs = try bus.runSandboxed(appID: "org.example.Chat", "/usr/bin/gdbus", gdbusArgs + [
            "org.freedesktop.Notifications.Notify", "chat", "0", "", "from the sandbox", "", "[]", "{}", "0"])
        let theirID = try #require(theirs.stdout.split(whereSeparator: { !$0.isNumber }).last.map(String.init), "\(theirs)")
        let hostClose = try gdbus("CloseNotification", [theirID])
        #expect(hostClose.status != 0 && hostClose.stderr.contains(BusError.accessDenied), "\(hostClose)")
        _ = try gdbus("CloseNotification", [id])
        #expect(try owner.pages("History").first { $0["id"]?.uint32 == UInt32(id) }?["close-reason"]?.integer == 3, "the script closed it")
    }

    /// A script that sends with one `gdbus call` and closes with another: the same executable.
    @Test func aSecondGdbusClosesWhatTheFirstSent() throws {
        let sent = try gdbus("Notify", ["script", "0", "", "build done", "", "[]", "{}", "0"])
        let id = try #require(sent.stdout.split(whereSeparator: { !$0.isNumber }).last.map(String.init), "\(sent)")
        let closed = try gdbus("CloseNotification", [id])
        #expect(closed.status == 0, "\(closed)")
        #expect(try bus.client().list().isEmpty)
    }

    @Test func expiryClosesWithReason1AndCriticalNeverExpires() throws {
        let client = try bus.client()
        try client.listen()
        let critical = try client.notify(summary: "critical", hints: [("urgency", .byte(2))], timeout: 100)
        let normal = try client.notify(summary: "normal", timeout: 300)
        #expect(client.waitUntil { client.signals(named: "NotificationClosed").contains { $0.arguments.first == .uint32(normal) } })
        #expect(client.signals(named: "NotificationClosed").first?.arguments == [.uint32(normal), .uint32(1)])
        #expect(try client.list().filter { $0["app-name"]?.string == "test" }.map { $0["id"] } == [.uint32(critical)])
    }

    @Test func defaultTimeoutComesFromTheCommandLine() throws {
        let bus = try TestBus(arguments: ["--default-timeout", "200"])
        let client = try bus.client()
        try client.listen()
        let id = try client.notify(timeout: -1)
        #expect(client.waitUntil { !client.signals(named: "NotificationClosed").isEmpty })
        #expect(client.signals(named: "NotificationClosed").first?.arguments == [.uint32(id), .uint32(1)])
    }

    @Test func bodyMarkupIsSanitised() throws {
        let client = try bus.client()
        _ = try client.notify(body: "<b>bold</b><script>x</script>")
        _ = try client.notify(body: "<b>unclosed")
        _ = try bus.run("notify-send", ["blink", "<blink>x</blink>"])
        let bodies = try client.list().map { $0["body"]?.string }
        #expect(bodies == ["<b>bold</b>x", "&lt;b&gt;unclosed", "x"], "other tags removed, their text kept; malformed shown as text")
    }
}
