import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Chime as the notification portal's backend: calls made as xdg-desktop-portal makes them
/// (org.freedesktop.impl.portal.Notification on org.freedesktop.impl.portal.desktop.chime).
@Suite struct PortalTests {
    static let name = "org.freedesktop.impl.portal.desktop.chime"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.impl.portal.Notification"

    /// The portal frontend: a client that owns the portal's name, calls the backend and hears
    /// its ActionInvoked.
    static func frontend(_ bus: TestBus) throws -> TestClient {
        let client = try bus.client()
        _ = try client.connection.requestName("org.freedesktop.portal.Desktop", replace: false)
        try client.listen("type='signal',interface='\(interface)'")
        return client
    }

    static func add(_ client: TestClient, app: String, id: String, _ entries: [(String, BusValue)],
                    descriptors: [Int32] = []) throws(BusError) {
        _ = try client.connection.call(.methodCall(destination: name, path: path, interface: interface, method: "AddNotification",
                                                   arguments: [.string(app), .string(id), .vardict(entries)], descriptors: descriptors),
                                       timeoutMilliseconds: 10_000)
    }

    static func refusal(_ client: TestClient, _ entries: [(String, BusValue)], descriptors: [Int32] = []) -> String {
        do throws(BusError) {
            try add(client, app: "org.example.Chat", id: "bad", entries, descriptors: descriptors)
            return "accepted"
        } catch {
            return "\(error.name): \(error.message)"
        }
    }

    /// What is open from the portal's apps (not Chime's own word on a first time-sensitive one).
    static func listed(_ client: TestClient) throws -> [[String: BusValue]] {
        (try client.control("List", [.vardict([])]).first?.records ?? []).filter { $0["app-identity"]?.string != "chime" }
    }

    /// A file's bytes behind a descriptor, as the portal passes a sealed memfd.
    static func descriptor(of path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }

    /// Notify's bounds hold through the portal: six calls of 1,000 buttons with 50 KB labels and a
    /// 1 MB category cost the center what six ordinary notifications cost; a target too large to
    /// say back is refused.
    @Test func thePortalsNotificationsKeepNotifysBounds() throws {
        let bus = try TestBus()
        let frontend = try Self.frontend(bus)
        let buttons = (0..<1_000).map { index in
            BusValue.vardict([("action", .string("a\(index)")), ("label", .string(String(repeating: "l", count: 50_000)))])
        }
        for index in 0..<6 {
            try Self.add(frontend, app: "org.example.Chat", id: "big-\(index)", [
                ("title", .string("big \(index)")), ("buttons", .array(elementSignature: "a{sv}", buttons)),
                ("category", .string("x-" + String(repeating: "c", count: 1_000_000))),
            ])
        }
        let listed = try Self.listed(frontend)
        #expect(listed.count == 6 && listed.allSatisfy { ($0["actions"]?.strings?.count ?? 99) <= 2 * 16 })
        let database = bus.directory.appendingPathComponent("state/chime").path
        _ = try bus.chimectl("history", "--limit", "100")
        let size = try FileManager.default.contentsOfDirectory(atPath: database).filter { $0.hasPrefix("chime.db") }
            .reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: database + "/" + $1)[.size] as? Int) ?? 0) }
        #expect(size < 8_000_000, "\(size) bytes")
        let refused = Self.refusal(frontend, [("default-action", .string("open")),
                                              ("default-action-target", .variant(.bytes([UInt8](repeating: 1, count: 100_000))))])
        #expect(refused.hasPrefix("org.freedesktop.DBus.Error.InvalidArgs: default-action-target takes"), "\(refused)")
    }

    /// The portal's icons are kept in a folder of the user's own: without XDG_RUNTIME_DIR in
    /// `$XDG_CACHE_HOME/chime/portal`, never a name others can guess in /tmp; and where another
    /// folder stands in its place (a symbolic link to the user's files), chimed keeps nothing
    /// there and touches none of them.
    @Test func portalFilesStayInAFolderOfTheUsersOwn() throws {
        let bus = try TestBus(daemon: false)
        bus.extraEnvironment["XDG_RUNTIME_DIR"] = ""
        try bus.startDaemon()
        let frontend = try Self.frontend(bus)
        let icon = bus.directory.appendingPathComponent("icon.png").path
        #expect(try bus.run("convert", ["-size", "16x16", "xc:blue", icon]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: icon)))
        try Self.add(frontend, app: "org.example.Chat", id: "one", [("title", .string("hi")),
                     ("icon", .structure([.string("bytes"), .variant(.bytes(bytes))]))])
        let path = try #require(try Self.listed(frontend).first?["image-path"]?.string)
        #expect(path.hasPrefix(bus.directory.appendingPathComponent(".cache/chime/portal/").path), "\(path)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/chime-\(getuid())/chime/portal/" + (path.split(separator: "/").last.map(String.init) ?? "")))

        // Another chimed, whose runtime folder holds a link where its portal folder goes.
        let other = try TestBus(daemon: false)
        let runtime = other.directory.appendingPathComponent("runtime")
        let victim = other.directory.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: runtime.appendingPathComponent("chime"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        for index in 0..<300 {
            let file = victim.appendingPathComponent("note-\(index).txt").path
            _ = FileManager.default.createFile(atPath: file, contents: Data("mine".utf8), attributes: [.posixPermissions: 0o644])
        }
        try FileManager.default.createSymbolicLink(atPath: runtime.appendingPathComponent("chime/portal").path, withDestinationPath: victim.path)
        other.extraEnvironment["XDG_RUNTIME_DIR"] = runtime.path
        try other.startDaemon()
        let otherFrontend = try Self.frontend(other)
        for index in 0..<3 {
            var tinted = bytes
            tinted[tinted.count - 20] ^= UInt8(index + 1)  // another file each time, as new icons are
            let refused = Self.refusal(otherFrontend, [("title", .string("hi")), ("icon", .structure([.string("bytes"), .variant(.bytes(tinted))]))])
            #expect(refused.contains("is not a folder of this user's own"), "\(refused)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: victim.path)
        #expect(left.count == 300, "none deleted")
        #expect(try left.allSatisfy { name in
            (try FileManager.default.attributesOfItem(atPath: victim.appendingPathComponent(name).path)[.posixPermissions] as? Int) == 0o644
        }, "none changed")
    }

    /// The portal's icons kept as files are bounded in bytes, not only in count: 40 icons of 2 MB
    /// leave at most 64 MB in the runtime folder.
    @Test func thePortalsFilesAreBoundedInBytes() throws {
        let bus = try TestBus(daemon: false)
        let runtime = bus.directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        bus.extraEnvironment["XDG_RUNTIME_DIR"] = runtime.path
        try bus.startDaemon()
        let frontend = try Self.frontend(bus)
        let icon = bus.directory.appendingPathComponent("noise.png").path
        #expect(try bus.run("convert", ["-size", "820x820", "xc:", "+noise", "Random", icon]).status == 0)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: icon)))
        for index in 0..<40 {
            bytes[bytes.count / 2] = UInt8(index)  // another file each time, as new icons are
            try Self.add(frontend, app: "org.example.Chat", id: "n\(index)", [("title", .string("n\(index)")),
                         ("icon", .structure([.string("bytes"), .variant(.bytes(bytes))]))])
        }
        let folder = runtime.appendingPathComponent("chime/portal").path
        let total = try FileManager.default.contentsOfDirectory(atPath: folder).reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + $1)[.size] as? Int) ?? 0)
        }
        #expect(total <= 64 * 1024 * 1024 && total > 0, "\(total) bytes")
    }

    @Test func aPortalNotificationIsTheAppsAndItsActionsGoBackToThePortal() throws {
        let bus = try TestBus()
        let frontend = try Self.frontend(bus)
        let icon = bus.directory.appendingPathComponent("avatar.png").path
        #expect(try bus.run("convert", ["-size", "32x32", "xc:blue", icon]).status == 0)
        let iconFD = Self.descriptor(of: icon)
        defer { close(iconFD) }
        try Self.add(frontend, app: "org.example.Chat", id: "message-1", [
            ("title", .string("Ada")), ("markup-body", .string("<b>Lunch</b> at <i>noon</i>?")),
            ("priority", .string("high")), ("category", .string("im.message")),
            ("icon", .structure([.string("file-descriptor"), .variant(.unixFD(0))])),
            ("default-action", .string("open-chat")), ("default-action-target", .variant(.string("room-7"))),
            ("buttons", .array(elementSignature: "a{sv}", [
                .vardict([("action", .string("reply")), ("purpose", .string("im.reply-with-text")), ("label", .string("Reply"))]),
                .vardict([("action", .string("mute")), ("label", .string("Mute"))]),
            ])),
        ], descriptors: [iconFD])
        var listed = try Self.listed(frontend)
        #expect(listed.count == 1)
        let record = try #require(listed.first)
        let id = try #require(record["id"]?.uint32)
        #expect(record["app-identity"]?.string == "org.example.Chat", "the portal's app id is who sent it")
        #expect(record["summary"]?.string == "Ada")
        #expect(record["body"]?.string == "<b>Lunch</b> at <i>noon</i>?")
        #expect(record["category"]?.string == "im.received", "the old spelling is taken as the new")
        #expect(record["level"]?.string == "time-sensitive")
        #expect(record["actions"]?.strings == ["default", "Open", "inline-reply", "Reply", "mute", "Mute"])
        let kept = try #require(record["avatar-path"]?.string)
        #expect(kept.hasSuffix(".image") && access(kept, R_OK) == 0, "the icon's bytes kept as a file of chimed's: \(kept)")

        // The same id again replaces it, quietly.
        try Self.add(frontend, app: "org.example.Chat", id: "message-1", [("title", .string("Ada")), ("body", .string("Lunch at 1 & <not markup>"))])
        listed = try Self.listed(frontend)
        #expect(listed.map { $0["id"]?.uint32 } == [id])
        #expect(listed.first?["body"]?.string == "Lunch at 1 &amp; &lt;not markup&gt;", "a plain body is escaped")

        // Actions go back to the portal under the app's names, with the target and the reply.
        try Self.add(frontend, app: "org.example.Chat", id: "message-1", [
            ("title", .string("Ada")), ("default-action", .string("open-chat")), ("default-action-target", .variant(.string("room-7"))),
            ("buttons", .array(elementSignature: "a{sv}", [
                .vardict([("action", .string("reply")), ("purpose", .string("im.reply-with-text"))]),
            ])),
        ])
        _ = try frontend.control("Reply", [.uint32(id), .string("on my way")])
        #expect(frontend.waitUntil { !frontend.signals(named: "ActionInvoked").isEmpty })
        let replied = try #require(frontend.signals(named: "ActionInvoked").first)
        #expect(replied.destination == frontend.uniqueName, "to the portal that sent it only")
        #expect(replied.arguments.prefix(3) == [.string("org.example.Chat"), .string("message-1"), .string("reply")])
        #expect(replied.arguments.last?.arrayItems.last == .variant(.string("on my way")))

        try Self.add(frontend, app: "org.example.Chat", id: "message-2", [
            ("title", .string("Grace")), ("default-action", .string("open-chat")), ("default-action-target", .variant(.string("room-9"))),
        ])
        let second = try #require(try Self.listed(frontend).last?["id"]?.uint32)
        _ = try frontend.control("Invoke", [.uint32(second), .string("")])
        #expect(frontend.waitUntil { frontend.signals(named: "ActionInvoked").count == 2 })
        let invoked = try #require(frontend.signals(named: "ActionInvoked").last)
        #expect(invoked.arguments.prefix(3) == [.string("org.example.Chat"), .string("message-2"), .string("open-chat")])
        #expect(invoked.arguments.last?.arrayItems.first == .variant(.string("room-9")), "the target first")

        // RemoveNotification withdraws it; another app's id of the same name is another notification.
        try Self.add(frontend, app: "org.example.Other", id: "message-2", [("title", .string("not Grace"))])
        _ = try frontend.connection.call(.methodCall(destination: Self.name, path: Self.path, interface: Self.interface,
                                                     method: "RemoveNotification", arguments: [.string("org.example.Chat"), .string("message-2")]))
        listed = try Self.listed(frontend)
        #expect(!listed.contains { $0["id"]?.uint32 == second })
        #expect(listed.contains { $0["summary"]?.string == "not Grace" })
    }

    /// What the portal's specification calls invalid is refused with the reason, and a file that
    /// is not what its key says is refused by what its bytes are, not by its name.
    @Test func invalidValuesAndFilesAreRefusedWithTheirReason() throws {
        let bus = try TestBus()
        let frontend = try Self.frontend(bus)
        #expect(Self.refusal(frontend, [("priority", .string("soon"))]).contains("'soon' is not a priority"))
        #expect(Self.refusal(frontend, [("display-hint", .stringArray(["transient", "tray"]))]).contains("both transient and tray"))
        #expect(Self.refusal(frontend, [("display-hint", .stringArray(["sparkly"]))]).contains("'sparkly' is not a display hint"))
        #expect(Self.refusal(frontend, [("category", .string("gossip"))]).contains("'gossip' is not a category"))
        #expect(Self.refusal(frontend, [("buttons", .array(elementSignature: "a{sv}", [.vardict([("action", .string("x")), ("purpose", .string("dance"))])]))])
            .contains("'dance' is not a button purpose"))
        let text = bus.directory.appendingPathComponent("picture.png").path
        try "not a picture".write(toFile: text, atomically: true, encoding: .utf8)
        let textFD = Self.descriptor(of: text)
        defer { close(textFD) }
        let icon = Self.refusal(frontend, [("icon", .structure([.string("file-descriptor"), .variant(.unixFD(0))]))], descriptors: [textFD])
        #expect(icon.contains("org.freedesktop.DBus.Error.InvalidArgs") && icon.contains("icon: the icon is not an image type"), "\(icon)")
        let sound = Self.refusal(frontend, [("sound", .structure([.string("file-descriptor"), .variant(.unixFD(0))]))], descriptors: [textFD])
        #expect(sound.contains("sound: the sound is not Ogg"), "\(sound)")
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        defer { close(pipe[0]); close(pipe[1]) }
        let piped = Self.refusal(frontend, [("sound", .structure([.string("file-descriptor"), .variant(.unixFD(0))]))], descriptors: [pipe[0]])
        #expect(piped.contains("not a file"), "a pipe never stalls chimed: \(piped)")
        #expect(try Self.listed(frontend).isEmpty, "nothing refused is shown")
    }

    /// xdg-desktop-portal starts its backend by name: the installed service file starts chimed.
    @Test func callingTheBackendStartsChimed() throws {
        let bus = try TestBus(daemon: false, activation: true)
        let frontend = try Self.frontend(bus)
        try Self.add(frontend, app: "org.example.Chat", id: "first", [("title", .string("woke it"))])
        #expect(try Self.listed(frontend).first?["summary"]?.string == "woke it")
    }

    /// End to end through Debian's xdg-desktop-portal (1.16: portal version 1, no host-app
    /// registry, so a host app without a systemd scope of its own comes with an empty app id):
    /// the portal finds Chime by chime.portal, forwards the notification with the keys it knows
    /// (title, body, priority, default-action, buttons), and hands Chime's ActionInvoked back to
    /// the app.
    @Test func throughDebiansXdgDesktopPortal() throws {
        let bus = try TestBus()
        let portals = bus.directory.appendingPathComponent("portals")
        try FileManager.default.createDirectory(at: portals, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestBus.packageRoot.appendingPathComponent("dbus/chime.portal"),
                                         to: portals.appendingPathComponent("chime.portal"))
        let portal = try Subprocess("/usr/libexec/xdg-desktop-portal", [], environment: bus.environment.merging(
            ["XDG_DESKTOP_PORTAL_DIR": portals.path, "XDG_CURRENT_DESKTOP": "sway"]) { _, new in new })
        defer {
            portal.signal(SIGTERM)
            _ = portal.wait(timeout: 5)
        }
        let app = try bus.client()
        try app.listen("type='signal',interface='org.freedesktop.portal.Notification'")
        #expect(app.waitUntil {
            (try? app.connection.busCall("NameHasOwner", [.string("org.freedesktop.portal.Desktop")]).first?.bool) == true
        }, "xdg-desktop-portal did not start: \(portal.stderr)")
        func call(_ method: String, _ arguments: [BusValue]) throws(BusError) {
            _ = try app.connection.call(.methodCall(destination: "org.freedesktop.portal.Desktop", path: Self.path,
                                                    interface: "org.freedesktop.portal.Notification", method: method, arguments: arguments),
                                        timeoutMilliseconds: 10_000)
        }
        try call("AddNotification", [.string("build-1"), .vardict([
            ("title", .string("Build failed")), ("body", .string("main is red")), ("priority", .string("low")),
            ("default-action", .string("open-log")),
            ("buttons", .array(elementSignature: "a{sv}", [.vardict([("label", .string("Retry")), ("action", .string("retry"))])])),
        ])])
        #expect(app.waitUntil { (try? Self.listed(app))?.contains { $0["summary"]?.string == "Build failed" } == true }, "\(portal.stderr)")
        let record = try #require(try Self.listed(app).first { $0["summary"]?.string == "Build failed" })
        #expect(record["level"]?.string == "passive", "priority low")
        #expect(record["actions"]?.strings == ["default", "Open", "retry", "Retry"])
        let id = try #require(record["id"]?.uint32)
        _ = try app.control("Invoke", [.uint32(id), .string("retry")])
        #expect(app.waitUntil { !app.signals(named: "ActionInvoked").isEmpty })
        #expect(app.signals(named: "ActionInvoked").first?.arguments.prefix(2) == [.string("build-1"), .string("retry")])
        try call("RemoveNotification", [.string("build-1")])
        #expect(app.waitUntil { (try? Self.listed(app))?.contains { $0["id"]?.uint32 == id } == false }, "withdrawn")
    }

    /// An action chosen from the center after the notification closed still goes back through
    /// the portal, under the app's names, as a closed notification's action reaches a Notify app.
    @Test func anActionFromTheCenterAfterItClosedGoesToThePortal() throws {
        let bus = try TestBus()
        let frontend = try Self.frontend(bus)
        try Self.add(frontend, app: "org.example.Chat", id: "old", [("title", .string("Earlier")), ("default-action", .string("open"))])
        let id = try #require(try Self.listed(frontend).first?["id"]?.uint32)
        _ = try frontend.control("Dismiss", [.uint32(id)])
        #expect(try Self.listed(frontend).isEmpty)
        _ = try frontend.control("Invoke", [.uint32(id), .string("")])
        #expect(frontend.waitUntil { !frontend.signals(named: "ActionInvoked").isEmpty })
        #expect(frontend.signals(named: "ActionInvoked").first?.arguments.prefix(3) == [.string("org.example.Chat"), .string("old"), .string("open")])
        // The same portal id names a new notification once the first closed.
        try Self.add(frontend, app: "org.example.Chat", id: "old", [("title", .string("Later"))])
        #expect(try Self.listed(frontend).first?["id"]?.uint32 != id)
    }

    /// Only the portal may say which app a notification is from.
    @Test func onlyThePortalMayCallTheBackend() throws {
        let bus = try TestBus()
        let stranger = try bus.client()
        let refused = Self.refusal(stranger, [("title", .string("I am Chat"))])
        #expect(refused.contains("AccessDenied") && refused.contains("only xdg-desktop-portal"), "\(refused)")
        #expect(try Self.listed(stranger).isEmpty)
    }

    @Test func theBackendSaysItsVersionAndWhatItSupports() throws {
        let bus = try TestBus()
        let frontend = try Self.frontend(bus)
        func property(_ name: String) throws(BusError) -> BusValue? {
            try frontend.connection.call(.methodCall(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties",
                                                     method: "Get", arguments: [.string(Self.interface), .string(name)])).first
        }
        #expect(try property("version")?.uint32 == 2)
        let options = try #require(try property("SupportedOptions")?.vardictEntries)
        #expect(options["category"]?.strings?.contains("im.received") == true)
        #expect(options["button-purpose"]?.strings?.contains("im.reply-with-text") == true)
    }
}

extension BusValue {
    /// An array's items (`av` as its variants).
    var arrayItems: [BusValue] {
        if case .array(_, let items) = unwrapped { return items }
        return []
    }
}
