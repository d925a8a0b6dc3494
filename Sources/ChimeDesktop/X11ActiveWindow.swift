import CDesktop
import ChimeCore
import ChimeGLib
import Glibc

/// The focused window on X11, as the window manager says (EWMH): the root window's
/// `_NET_ACTIVE_WINDOW`, and of that window its `_GTK_APPLICATION_ID`, `WM_CLASS`,
/// `_NET_WM_PID` and whether `_NET_WM_STATE` holds `_NET_WM_STATE_FULLSCREEN`. Property changes
/// come as events on the main loop; reading a window's properties asks the X server.
public final class X11ActiveWindow: DesktopSource {
    private var connection: OpaquePointer?
    private let root: xcb_window_t
    private var watch: UInt32?
    /// The window whose properties are watched: the active one.
    private var active: xcb_window_t = 0
    private var reported: DesktopContext.Window??
    private let changed: (DesktopContext.Window?, _ pid: Int32?) -> Void
    private let ended: (DesktopSourceEnding) -> Void
    private let atoms: Atoms

    private struct Atoms {
        let activeWindow, state, fullscreen, pid, gtkApplicationID, utf8String: xcb_atom_t
        let wmClass = xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue)
    }

    /// Connects to the X server `display` names; nil when it cannot be reached. `changed` gets
    /// the focused window and its process, if the window names one.
    public init?(display name: String, changed: @escaping (DesktopContext.Window?, _ pid: Int32?) -> Void,
                 ended: @escaping (DesktopSourceEnding) -> Void) {
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(name, &screenNumber) else { return nil }
        guard xcb_connection_has_error(connection) == 0 else {
            xcb_disconnect(connection)
            return nil
        }
        var screens = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<max(0, screenNumber) { xcb_screen_next(&screens) }
        guard let screen = screens.data else {
            xcb_disconnect(connection)
            return nil
        }
        self.connection = connection
        root = screen.pointee.root
        self.changed = changed
        self.ended = ended
        let names = ["_NET_ACTIVE_WINDOW", "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_WM_PID", "_GTK_APPLICATION_ID", "UTF8_STRING"]
        // Asked together, then answered: one round trip.
        let cookies = names.map { xcb_intern_atom(connection, 0, UInt16($0.utf8.count), $0) }
        let values = cookies.map { cookie -> xcb_atom_t in
            guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return 0 }
            defer { free(reply) }
            return reply.pointee.atom
        }
        atoms = Atoms(activeWindow: values[0], state: values[1], fullscreen: values[2], pid: values[3],
                      gtkApplicationID: values[4], utf8String: values[5])
        listen(to: root)
        watch = GLibSources.readable(xcb_get_file_descriptor(connection)) { [weak self] in self?.read() ?? false }
        follow()
    }

    deinit { disconnect() }

    public var source: DesktopContext.Source { .ewmh }

    private func disconnect() {
        if let watch { GLibSources.remove(watch) }
        watch = nil
        if let connection { xcb_disconnect(connection) }
        connection = nil
    }

    private func read() -> Bool {
        guard let connection else { return false }
        var follows = false
        while let event = xcb_poll_for_event(connection) {
            defer { free(event) }
            guard event.pointee.response_type & 0x7f == XCB_PROPERTY_NOTIFY else { continue }
            let notify = UnsafeRawPointer(event).load(as: xcb_property_notify_event_t.self)
            // A terminal's title changes often; only what names the app or says fullscreen counts.
            let relevant = notify.window == root ? notify.atom == atoms.activeWindow
                : notify.window == active && [atoms.state, atoms.wmClass, atoms.gtkApplicationID].contains(notify.atom)
            follows = follows || relevant
        }
        guard xcb_connection_has_error(connection) == 0 else {
            watch = nil
            disconnect()
            ended(.disconnected)
            return false
        }
        if follows { follow() }
        return true
    }

    /// Reads the active window again, watches it instead of the last one, and says it.
    private func follow() {
        let window = properties([atoms.activeWindow], of: root)[0].flatMap { Self.values($0, as: UInt32.self).first } ?? 0
        if window != active {
            if active != 0 { listen(to: active, on: false) }
            active = window
            if window != 0 { listen(to: window) }
        }
        var focused: DesktopContext.Window?
        var pid: Int32?
        if window != 0 {
            let found = properties([atoms.gtkApplicationID, atoms.wmClass, atoms.pid, atoms.state], of: window)
            var names: [String] = []
            if let id = found[0].map(Self.text), !id.isEmpty { names.append(id) }
            // WM_CLASS: the instance, then the class, each ended by a NUL.
            names += (found[1] ?? []).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
            pid = found[2].flatMap { Self.values($0, as: UInt32.self).first }.map { Int32(bitPattern: $0) }
            let fullscreen = found[3].map { Self.values($0, as: UInt32.self).contains(atoms.fullscreen) } ?? false
            focused = DesktopContext.Window(appIDs: names, fullscreen: fullscreen)
        }
        if let reported, reported == focused { return }
        reported = .some(focused)
        changed(focused, pid)
    }

    private func listen(to window: xcb_window_t, on: Bool = true) {
        guard let connection else { return }
        var mask = on ? XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue : XCB_EVENT_MASK_NO_EVENT.rawValue
        xcb_change_window_attributes(connection, window, XCB_CW_EVENT_MASK.rawValue, &mask)
        xcb_flush(connection)
    }

    /// Properties' bytes (at most 4 KB each), asked together and then answered: one round trip.
    /// nil for one the window has not (or when it is gone).
    private func properties(_ names: [xcb_atom_t], of window: xcb_window_t) -> [[UInt8]?] {
        guard let connection else { return names.map { _ in nil } }
        let cookies = names.map { xcb_get_property(connection, 0, window, $0, xcb_atom_t(XCB_ATOM_ANY.rawValue), 0, 1_024) }
        return zip(names, cookies).map { atom, cookie in
            guard let reply = xcb_get_property_reply(connection, cookie, nil) else { return nil }
            defer { free(reply) }
            let length = Int(xcb_get_property_value_length(reply))
            guard atom != 0, reply.pointee.type != 0, length > 0, let value = xcb_get_property_value(reply) else { return nil }
            return Array(UnsafeRawBufferPointer(start: value, count: length))
        }
    }

    private static func values<T: FixedWidthInteger>(_ bytes: [UInt8], as type: T.Type) -> [T] {
        bytes.withUnsafeBytes { raw in (0..<raw.count / MemoryLayout<T>.size).map { raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self) } }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
