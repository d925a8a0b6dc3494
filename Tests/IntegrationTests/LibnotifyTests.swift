import ChimeTestSupport
import Foundation
import Testing

/// An app written with libnotify (through PyGObject, as GTK apps and scripts use it): updates,
/// actions and closes reach it as libnotify expects.
@Suite struct LibnotifyTests {
    /// Shows a notification with two actions, updates it in place, prints its id after each
    /// show, and then what happens to it: the action chosen, or that it closed and why.
    static let script = """
        import sys, gi
        gi.require_version('Notify', '0.7')
        from gi.repository import Notify, GLib
        Notify.init("Builds")
        loop = GLib.MainLoop()
        n = Notify.Notification.new("Build failed", "main is red", "dialog-error")
        n.set_timeout(Notify.EXPIRES_NEVER)
        n.set_hint("x-chime-thread", GLib.Variant("s", "ci"))
        def chosen(notification, action):
            print("action", action, flush=True)
            loop.quit()
        n.add_action("default", "Open", chosen)
        n.add_action("log", "Show log", chosen)
        n.connect("closed", lambda n: (print("closed", n.get_closed_reason(), flush=True), loop.quit()))
        n.show()
        print("id", n.props.id, flush=True)
        n.update("Build failed (2)", "main is still red", "dialog-error")
        n.show()
        print("id", n.props.id, flush=True)
        GLib.timeout_add_seconds(20, loop.quit)
        loop.run()
        """

    static func start(_ bus: TestBus) throws -> (app: Subprocess, id: String) {
        let path = bus.directory.appendingPathComponent("builds.py").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let app = try bus.start("/usr/bin/python3", [path])
        guard app.line(timeout: 10, matching: { $0.hasPrefix("id ") }) != nil,
              let second = app.line(from: 1, timeout: 10, matching: { $0.hasPrefix("id ") }) else {
            throw TestFailure("the libnotify app did not show its notification: \(app.stderr)")
        }
        return (app, String(second.dropFirst(3)))
    }

    @Test func anUpdateReplacesInPlaceAndAnActionReachesTheApp() throws {
        let bus = try TestBus()
        let (app, id) = try Self.start(bus)
        #expect(app.stdoutLines.filter { $0.hasPrefix("id ") } == ["id \(id)", "id \(id)"], "update() keeps its id")
        let listed = try bus.chimectl("list").stdout.split(separator: "\n")
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?.contains("Build failed (2)") == true)
        #expect(try bus.chimectl("invoke", id, "log").status == 0)
        #expect(app.line(timeout: 10) { $0 == "action log" } != nil, "\(app.stdout) \(app.stderr)")
    }

    @Test func aDismissIsClosedReasonTwoAndTheDefaultActionIsAClick() throws {
        let bus = try TestBus()
        var (app, id) = try Self.start(bus)
        #expect(try bus.chimectl("dismiss", id).status == 0)
        #expect(app.line(timeout: 10) { $0 == "closed 2" } != nil, "\(app.stdout) \(app.stderr)")
        (app, id) = try Self.start(bus)
        #expect(try bus.chimectl("invoke", id).status == 0)
        #expect(app.line(timeout: 10) { $0 == "action default" } != nil, "\(app.stdout) \(app.stderr)")
    }
}
