import ChimeTestSupport
import Foundation

/// A small MPRIS player in python (GLib's GDBus) for the tests: it owns
/// `org.mpris.MediaPlayer2.testplayer`, says what it plays as players do, records the calls a
/// client makes to it, and is driven through `org.example.TestPlayer` (SetTrack, Send, Calls).
struct TestMediaPlayer {
    static let busName = "org.mpris.MediaPlayer2.testplayer"
    let process: Subprocess
    let bus: TestBus

    init(bus: TestBus, art: String = "") throws {
        self.bus = bus
        let script = bus.directory.appendingPathComponent("testplayer.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        process = try bus.start("/usr/bin/python3", [script.path, art])
        guard process.line(timeout: 20, matching: { $0 == "ready" }) != nil else { throw TestFailure("the test player did not start") }
    }

    /// Calls the test interface with gdbus; returns what gdbus printed.
    @discardableResult
    func call(_ method: String, _ arguments: String...) throws -> String {
        let result = try bus.run("gdbus", ["call", "--session", "--dest", Self.busName, "--object-path", "/org/mpris/MediaPlayer2",
                                           "--method", "org.example.TestPlayer." + method] + arguments)
        guard result.status == 0 else { throw TestFailure("\(method): \(result.stderr)") }
        return result.stdout
    }

    func setTrack(_ title: String, artist: String) throws { try call("SetTrack", title, artist) }

    /// Sends a notification from the player's own connection; its id.
    func send(_ summary: String, _ body: String) throws -> UInt32 {
        let out = try call("Send", summary, body)  // "(uint32 12,)"
        return UInt32(out.split(whereSeparator: { !$0.isNumber }).last.map(String.init) ?? "") ?? 0
    }

    func calls() throws -> String { try call("Calls") }

    func stop() {
        process.signal(SIGTERM)
        _ = process.wait(timeout: 10)
    }

    static let script = #"""
    import sys
    from gi.repository import Gio, GLib

    XML = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <method name="Raise"/><method name="Quit"/>
        <property name="Identity" type="s" access="read"/>
        <property name="DesktopEntry" type="s" access="read"/>
        <property name="CanQuit" type="b" access="read"/>
        <property name="CanRaise" type="b" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="PlayPause"/><method name="Play"/><method name="Pause"/>
        <method name="Next"/><method name="Previous"/><method name="Stop"/>
        <property name="Metadata" type="a{sv}" access="read"/>
        <property name="PlaybackStatus" type="s" access="read"/>
        <property name="CanGoNext" type="b" access="read"/>
        <property name="CanGoPrevious" type="b" access="read"/>
        <property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/>
      </interface>
      <interface name="org.example.TestPlayer">
        <method name="SetTrack"><arg type="s" direction="in"/><arg type="s" direction="in"/></method>
        <method name="Send"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="u" direction="out"/></method>
        <method name="Calls"><arg type="as" direction="out"/></method>
      </interface>
    </node>
    """
    art = sys.argv[1] if len(sys.argv) > 1 else ""
    state = {"title": "", "artist": "", "status": "Stopped", "calls": []}
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def metadata():
        data = {"mpris:trackid": GLib.Variant("o", "/org/example/track/1"),
                "xesam:title": GLib.Variant("s", state["title"]),
                "xesam:artist": GLib.Variant("as", [state["artist"]])}
        if art:
            data["mpris:artUrl"] = GLib.Variant("s", art)
        return GLib.Variant("a{sv}", data)

    def player_properties():
        return {"Metadata": metadata(), "PlaybackStatus": GLib.Variant("s", state["status"]),
                "CanGoNext": GLib.Variant("b", True), "CanGoPrevious": GLib.Variant("b", True),
                "CanPlay": GLib.Variant("b", True), "CanPause": GLib.Variant("b", True)}

    def changed(names):
        props = player_properties()
        bus.emit_signal(None, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "PropertiesChanged",
                        GLib.Variant("(sa{sv}as)", ("org.mpris.MediaPlayer2.Player", {n: props[n] for n in names}, [])))

    def get_property(connection, sender, path, interface, name):
        if interface == "org.mpris.MediaPlayer2":
            return {"Identity": GLib.Variant("s", "Test Player"), "DesktopEntry": GLib.Variant("s", "testplayer"),
                    "CanQuit": GLib.Variant("b", False), "CanRaise": GLib.Variant("b", False)}[name]
        return player_properties()[name]

    def method_call(connection, sender, path, interface, method, parameters, invocation):
        if interface == "org.example.TestPlayer":
            if method == "SetTrack":
                state["title"], state["artist"] = parameters.unpack()
                state["status"] = "Playing"
                changed(["Metadata", "PlaybackStatus"])
                invocation.return_value(None)
            elif method == "Send":
                summary, body = parameters.unpack()
                reply = bus.call_sync("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                      "org.freedesktop.Notifications", "Notify",
                                      GLib.Variant("(susssasa{sv}i)", ("Test Player", 0, "", summary, body, [], {}, -1)),
                                      GLib.VariantType.new("(u)"), Gio.DBusCallFlags.NONE, 10000, None)
                invocation.return_value(reply)
            elif method == "Calls":
                invocation.return_value(GLib.Variant("(as)", (state["calls"],)))
            return
        state["calls"].append(method)
        if method == "PlayPause":
            state["status"] = "Paused" if state["status"] == "Playing" else "Playing"
            changed(["PlaybackStatus"])
        invocation.return_value(None)

    for interface in node.interfaces:
        bus.register_object("/org/mpris/MediaPlayer2", interface, method_call, get_property, None)

    def acquired(connection, name):
        print("ready", flush=True)

    Gio.bus_own_name_on_connection(bus, "org.mpris.MediaPlayer2.testplayer", Gio.BusNameOwnerFlags.NONE, acquired, None)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 15, loop.quit)
    loop.run()
    """#
}
