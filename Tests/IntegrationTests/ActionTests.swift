import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeDBus

/// Actions and replies go back to the sender only.
@Suite struct ActionTests {
    let bus: TestBus
    init() throws { bus = try TestBus() }

    /// Waits for the notification with `summary` to be open and returns its id.
    func id(of summary: String, client: TestClient) throws -> UInt32? {
        var found: UInt32?
        client.waitUntil {
            found = (try? client.list())?.first { $0["summary"]?.string == summary }?["id"].flatMap { $0.integer }.map(UInt32.init)
            return found != nil
        }
        return found
    }

    /// `menu` offers the actions' labels to a menu program, one a line, and invokes the one it
    /// prints; Escape (a failure status) or a program that cannot run invokes nothing.
    @Test func menuOffersTheActionsToAMenuProgramAndInvokesTheOneChosen() throws {
        let waiting = try bus.start("notify-send", ["--wait", "-t", "0", "-A", "yes=Yes", "-A", "no=No", "Deploy?", "prod"])
        let client = try bus.client()
        #expect(try id(of: "Deploy?", client: client) != nil)
        let offered = bus.directory.appendingPathComponent("offered").path
        let escaped = try bus.chimectl("menu", "--", "sh", "-c", "cat > \(offered); exit 1")
        #expect(escaped.status == 1 && escaped.stderr.contains("no action was chosen"), "\(escaped)")
        #expect(try String(contentsOfFile: offered, encoding: .utf8) == "Yes\nNo\n")
        let missing = try bus.chimectl("menu", "--", "no-such-menu")
        #expect(missing.status == 127 && missing.stderr.contains("cannot run no-such-menu"), "\(missing)")
        #expect(try client.list().count == 1, "nothing invoked yet")
        #expect(try bus.chimectl("menu", "--", "sh", "-c", "cat > /dev/null; echo No").status == 0)
        #expect(waiting.wait(timeout: 10) == 0)
        #expect(waiting.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "no")
        let plain = try client.notify(summary: "no actions", timeout: 0)
        let none = try bus.chimectl("menu", "\(plain)", "--", "cat")
        #expect(none.status == 1 && none.stderr.contains("notification \(plain) has no actions"), "\(none)")
    }

    @Test func chimectlInvokeReachesNotifySendWait() throws {
        let sender = try bus.start("notify-send", ["--action=ok=OK", "--action=no=No", "--wait", "Question", "?"])
        let id = try #require(try id(of: "Question", client: bus.client()))
        #expect(try bus.chimectl("invoke", "\(id)", "ok").status == 0)
        #expect(sender.wait(timeout: 10) == 0)
        #expect(sender.stdout.trimmingCharacters(in: .newlines) == "ok")
    }

    @Test func invokeWithoutAKeyIsTheDefaultAction() throws {
        let sender = try bus.start("notify-send", ["--action=default=Open", "--wait", "Click", "me"])
        let id = try #require(try id(of: "Click", client: bus.client()))
        #expect(try bus.chimectl("invoke", "\(id)").status == 0)
        #expect(sender.wait(timeout: 10) == 0)
        #expect(sender.stdout.trimmingCharacters(in: .newlines) == "default")
    }

    /// Without an ID, as `makoctl invoke` and `dunstctl action`: the newest banner's default action.
    @Test func invokeWithoutAnIDIsTheNewestBannersDefaultAction() throws {
        let client = try bus.client()
        _ = try client.notify(summary: "older", actions: ["default", "Open"])
        let sender = try bus.start("notify-send", ["--action=default=Open", "--wait", "Newest", "me"])
        _ = try #require(try id(of: "Newest", client: client))
        #expect(try bus.chimectl("invoke").status == 0)
        #expect(sender.wait(timeout: 10) == 0)
        #expect(sender.stdout.trimmingCharacters(in: .newlines) == "default")
        #expect(try client.list().map { $0["summary"]?.string } == ["older"])
    }

    /// `dismiss` without an ID closes the newest banner (reason 2), as `makoctl dismiss` does,
    /// and `restore` without one brings back the one closed last, as `dunstctl history-pop`.
    @Test func dismissAndRestoreWithoutAnIDTakeTheNewestAndTheLastClosed() throws {
        let client = try bus.client()
        let older = try client.notify(summary: "older", timeout: 0)
        let newer = try client.notify(summary: "newer", timeout: 0)
        #expect(try bus.chimectl("dismiss").status == 0)
        #expect(try client.list().map { $0["id"]?.integer } == [Int64(older)])
        #expect(try bus.chimectl("restore").status == 0)
        let restored = try client.list().map { $0["id"]?.integer }
        #expect(restored == [Int64(older), Int64(newer)], "the dismissed one is back: \(restored)")
        #expect(try bus.chimectl("dismiss", "--all").status == 0)
        let none = try bus.chimectl("dismiss")
        #expect(none.status == 1 && none.stderr.contains("no notification is presented"), "\(none)")
    }

    /// A presenter's token (InvokeWithToken, here from gdbus) is the one the app gets; one over
    /// 1024 bytes is refused and nothing happens; chimectl's invoke gets chimed's own.
    @Test func thePresentersActivationTokenIsTheOneTheAppGets() throws {
        let sender = try bus.client()
        try sender.listen()
        let id = try sender.notify(actions: ["ok", "OK"], timeout: 0)
        func invoke(_ token: String) throws -> (status: Int32, stdout: String, stderr: String) {
            try bus.run("gdbus", ["call", "--session", "--dest", "dev.chime.Chime1", "--object-path", "/dev/chime/Chime1",
                                  "--method", "dev.chime.Chime1.InvokeWithToken", "\(id)", "ok", token])
        }
        let long = try invoke(String(repeating: "t", count: 1025))
        #expect(long.status != 0 && long.stderr.contains("InvalidArgs") && long.stderr.contains("over 1024 bytes"), "\(long)")
        #expect(try sender.list().contains { $0["id"] == .uint32(id) }, "still open")
        #expect(try invoke("wayland-token-1234").status == 0)
        #expect(sender.waitUntil { !sender.signals(named: "ActionInvoked").isEmpty })
        #expect(sender.signals(named: "ActivationToken").map(\.arguments) == [[.uint32(id), .string("wayland-token-1234")]])

        let again = try sender.notify(actions: ["ok", "OK"], timeout: 0)
        #expect(try bus.chimectl("invoke", "\(again)", "ok").status == 0)
        #expect(sender.waitUntil { sender.signals(named: "ActivationToken").count == 2 })
        #expect(sender.signals(named: "ActivationToken").last?.arguments.last?.string?.hasPrefix("chimed-") == true)
    }

    @Test func theTokenThenTheActionGoToTheSenderAloneAndNobodyElse() throws {
        let sender = try bus.client()
        let bystander = try bus.client()
        try sender.listen()
        try bystander.listen()
        let id = try sender.notify(actions: ["default", "Open", "ok", "OK"])
        #expect(try bus.chimectl("invoke", "\(id)", "ok").status == 0)
        #expect(sender.waitUntil { sender.signals(named: "NotificationClosed").count == 1 })
        #expect(sender.signals.map(\.member) == ["ActivationToken", "ActionInvoked", "NotificationClosed"])
        #expect(sender.signals(named: "ActionInvoked").first?.arguments == [.uint32(id), .string("ok")])
        #expect(sender.signals(named: "ActionInvoked").first?.destination == sender.uniqueName)
        // The bystander hears the broadcast close, proving it listened, and nothing private.
        #expect(bystander.waitUntil { !bystander.signals(named: "NotificationClosed").isEmpty })
        #expect(bystander.signals.map(\.member) == ["NotificationClosed"])
        #expect(sender.signals(named: "NotificationClosed").first?.arguments == [.uint32(id), .uint32(2)])
    }

    @Test func residentNotificationsStayOpenAfterAnAction() throws {
        let client = try bus.client()
        let id = try client.notify(actions: ["ok", "OK"], hints: [("resident", .bool(true))])
        #expect(try bus.chimectl("invoke", "\(id)", "ok").status == 0)
        #expect(try client.list().count == 1)
    }

    @Test func inlineReplyReachesTheSenderAlone() throws {
        let sender = try bus.client()
        let bystander = try bus.client()
        try sender.listen()
        try bystander.listen()
        let id = try sender.notify(app: "chat", actions: ["inline-reply", "Reply"],
                                   hints: [("x-kde-reply-placeholder-text", .string("Say something"))])
        #expect(try bus.chimectl("reply", "\(id)", "on my way").status == 0)
        #expect(sender.waitUntil { !sender.signals(named: "NotificationClosed").isEmpty })
        #expect(sender.signals(named: "NotificationReplied").first?.arguments == [.uint32(id), .string("on my way")])
        #expect(bystander.waitUntil { !bystander.signals(named: "NotificationClosed").isEmpty })
        #expect(bystander.signals(named: "NotificationReplied").isEmpty)
    }

    @Test func replyingToANotificationWithoutInlineReplyFails() throws {
        let id = try bus.client().notify()
        let result = try bus.chimectl("reply", "\(id)", "hi")
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not offer an inline reply"))
    }

    @Test func invokingAMissingActionFailsClearly() throws {
        let id = try bus.client().notify(actions: ["ok", "OK"])
        let result = try bus.chimectl("invoke", "\(id)")
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no default action"))
    }
}
