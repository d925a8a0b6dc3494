import ChimeConfig
import ChimeCore
import ChimeDBus

/// What makes GTK's banners (chime-presenter's) the ones to draw, though chime-banners could:
/// the user's style.css, which only GTK reads, and a screen reader, which reads GTK's windows
/// and not drawn ones.
enum GTKBannersNeeded {
    /// Why GTK is to draw the banners here, in words for the log; nil when nothing asks for it.
    static func reason(environment: [String: String], bus: BusConnection) -> String? {
        if let sheet = ConfigLoader.userStyleSheet(environment: environment) { return "\(sheet) styles them" }
        if screenReaderRuns(bus) { return "a screen reader runs" }
        return nil
    }

    /// The accessibility bus's `ScreenReaderEnabled` (Orca sets it while it runs), asked of the
    /// service only if it runs: asking must not start it.
    private static func screenReaderRuns(_ bus: BusConnection) -> Bool {
        let get = Message.methodCall(destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties",
                                     method: "Get", arguments: [.string("org.a11y.Status"), .string("ScreenReaderEnabled")])
        guard let reply = try? bus.call(get.withoutAutoStart(), timeoutMilliseconds: 500) else { return false }
        return reply.first == .variant(.bool(true))
    }
}
