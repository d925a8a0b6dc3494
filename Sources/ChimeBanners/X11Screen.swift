import CDraw
import ChimeGLib
import Glibc

/// The X server, through xcb: override-redirect windows that cairo draws into, their events on
/// the GLib main loop, and the work area banners are placed in. When the server goes away,
/// `ended` is called (the program exits, as GTK's did, and chimed waits for the display).
/// At `scale` 2 (GTK's GDK_SCALE or the settings daemon's, for HiDPI screens) every unit is two
/// pixels: the work area, the windows, the pointer and the drawing are in units here, pixels
/// only on the server.
final class X11Screen: BannerScreen {
    let connection: OpaquePointer
    let scale: Int
    private(set) var xsettings: XSettings?
    private let fixedScale: Int?
    var desktopChanged: () -> Void = {}
    private let screen: UnsafeMutablePointer<xcb_screen_t>
    private let visual: UnsafeMutablePointer<xcb_visualtype_t>
    /// With a compositor running, windows get an ARGB visual (and a colormap for it): corners
    /// outside a banner's rounded shape are then see-through; without one they would be black.
    private let translucent: (visual: UnsafeMutablePointer<xcb_visualtype_t>, colormap: xcb_colormap_t)?
    var isTranslucent: Bool { translucent != nil }
    /// The windows made here, by id; each forgets itself when it goes.
    private var windows: [xcb_window_t: Weak] = [:]
    private struct Weak { weak var window: X11Window? }
    private var watch: UInt32?
    private let atoms: [String: xcb_atom_t]
    var ended: () -> Void = {}
    var changed: () -> Void = {}
    /// An event handled said the work area or the monitors changed: `changed` is said once the
    /// events that came with it are handled too (RandR sends several for one change).
    private var areaChanged = false
    /// The X server's time of the last click, for the startup ids made for it.
    private var lastEventTime: UInt32 = 0
    /// Startup ids made for clicks, counted to keep each one unique.
    private var clicks = 0

    /// Connects to the X server `name` names; nil when it cannot be reached. `fixedScale`: the
    /// scale GDK_SCALE sets, over the settings daemon's.
    init?(display name: String?, fixedScale: Int?) {
        var number: Int32 = 0
        guard let connection = xcb_connect(name, &number), xcb_connection_has_error(connection) == 0 else { return nil }
        var screens = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<max(0, number) { xcb_screen_next(&screens) }
        guard let screen = screens.data, let visual = Self.visual(screen.pointee.root_visual, of: screen) else {
            xcb_disconnect(connection)
            return nil
        }
        self.connection = connection
        self.screen = screen
        self.visual = visual
        let names = ["UTF8_STRING", "_NET_WM_NAME", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_NET_WORKAREA",
                     "_NET_WM_CM_S\(number)", "_XSETTINGS_S\(number)", "_XSETTINGS_SETTINGS"]
        // Asked together, then answered: one round trip.
        let cookies = names.map { xcb_intern_atom(connection, 0, UInt16($0.utf8.count), $0) }
        var atoms: [String: xcb_atom_t] = [:]
        for (name, cookie) in zip(names, cookies) {
            guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { continue }
            atoms[name] = reply.pointee.atom
            free(reply)
        }
        self.atoms = atoms
        self.fixedScale = fixedScale
        let said = Self.desktopSettings(connection, root: screen.pointee.root, atoms: atoms, screen: number, fixedScale: fixedScale)
        scale = max(1, fixedScale ?? said.windowScale ?? 1)
        xsettings = said
        screenNumber = number
        translucent = Self.translucentVisual(connection, screen, compositor: atoms["_NET_WM_CM_S\(number)"])
        // The root's property changes: a new work area; RandR's events: new monitors.
        xcb_change_window_attributes(connection, screen.pointee.root, XCB_CW_EVENT_MASK.rawValue, [XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue])
        randrEvents = X11Monitors.watch(connection, root: screen.pointee.root)
        // The settings daemon's property changes: new settings.
        if said.owner != 0 {
            xcb_change_window_attributes(connection, said.owner, XCB_CW_EVENT_MASK.rawValue, [XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue])
        }
        watch = GLibSources.readable(xcb_get_file_descriptor(connection)) { [weak self] in self?.read() ?? false }
    }

    deinit {
        if let watch { GLibSources.remove(watch) }
        xcb_disconnect(connection)
    }

    private let screenNumber: Int32

    /// What the desktop says, with the DPI GTK takes: the daemon's DPI includes its scale, and GTK
    /// takes the one without it when it scales so.
    private static func desktopSettings(_ connection: OpaquePointer, root: xcb_window_t, atoms: [String: xcb_atom_t], screen number: Int32,
                                        fixedScale: Int?) -> XSettings {
        var said = XSettings(connection, root: root, selection: atoms["_XSETTINGS_S\(number)"], settings: atoms["_XSETTINGS_SETTINGS"])
        if fixedScale == nil, let unscaled = said.unscaledDPI { said.dpi = unscaled }
        return said
    }

    /// A 32-bit visual and a colormap for it, when a compositor owns the screen's `_NET_WM_CM_Sn`.
    private static func translucentVisual(_ connection: OpaquePointer, _ screen: UnsafeMutablePointer<xcb_screen_t>,
                                          compositor: xcb_atom_t?) -> (UnsafeMutablePointer<xcb_visualtype_t>, xcb_colormap_t)? {
        guard let compositor, let reply = xcb_get_selection_owner_reply(connection, xcb_get_selection_owner(connection, compositor), nil) else { return nil }
        let owner = reply.pointee.owner
        free(reply)
        guard owner != 0 else { return nil }
        var depths = xcb_screen_allowed_depths_iterator(screen)
        while depths.rem > 0 {
            if depths.data.pointee.depth == 32 {
                var visuals = xcb_depth_visuals_iterator(depths.data)
                while visuals.rem > 0 {
                    if visuals.data.pointee._class == UInt8(XCB_VISUAL_CLASS_TRUE_COLOR.rawValue) {
                        let colormap = xcb_generate_id(connection)
                        xcb_create_colormap(connection, UInt8(XCB_COLORMAP_ALLOC_NONE.rawValue), colormap, screen.pointee.root,
                                            visuals.data.pointee.visual_id)
                        return (visuals.data, colormap)
                    }
                    xcb_visualtype_next(&visuals)
                }
            }
            xcb_depth_next(&depths)
        }
        return nil
    }

    private static func visual(_ id: xcb_visualid_t, of screen: UnsafeMutablePointer<xcb_screen_t>) -> UnsafeMutablePointer<xcb_visualtype_t>? {
        var depths = xcb_screen_allowed_depths_iterator(screen)
        while depths.rem > 0 {
            var visuals = xcb_depth_visuals_iterator(depths.data)
            while visuals.rem > 0 {
                if visuals.data.pointee.visual_id == id { return visuals.data }
                xcb_visualtype_next(&visuals)
            }
            xcb_depth_next(&depths)
        }
        return nil
    }

    /// The monitor `output` names (else the primary, else the first) less the panels and docks
    /// the window manager keeps clear (`_NET_WORKAREA`). Each asked once, and again when the
    /// server says it changed.
    func workArea(output: String?) -> ScreenArea {
        let workArea = knownWorkArea ?? readWorkArea()
        knownWorkArea = workArea
        var area = workArea
        if randrEvents != nil {
            let monitors = knownMonitors ?? X11Monitors(connection, root: screen.pointee.root)
            knownMonitors = monitors
            if let monitor = monitors.chosen(output)?.area { area = monitor.intersection(workArea) ?? monitor }
        }
        return ScreenArea(x: area.x / scale, y: area.y / scale, width: area.width / scale, height: area.height / scale)
    }

    func scale(output: String?) -> Int { scale }

    private var knownWorkArea: ScreenArea?
    /// The number of RandR's first event, when the server lists monitors.
    private var randrEvents: UInt8?
    private var knownMonitors: X11Monitors?

    private func readWorkArea() -> ScreenArea {
        let whole = ScreenArea(x: 0, y: 0, width: Int(screen.pointee.width_in_pixels), height: Int(screen.pointee.height_in_pixels))
        guard let atom = atoms["_NET_WORKAREA"],
              let bytes = X11Property.bytes(connection, screen.pointee.root, atom, type: xcb_atom_t(XCB_ATOM_CARDINAL.rawValue), limit: 16),
              bytes.count >= 16 else { return whole }
        let numbers = (0..<4).map { index in bytes.withUnsafeBytes { $0.load(fromByteOffset: index * 4, as: UInt32.self) } }
        guard numbers[2] > 0, numbers[3] > 0 else { return whole }
        return ScreenArea(x: Int(numbers[0]), y: Int(numbers[1]), width: Int(numbers[2]), height: Int(numbers[3]))
    }

    /// A new window, unmapped, named `title` (what tools like xdotool find it by).
    func makeWindow(title: String, output: String?, draw: @escaping (OpaquePointer) -> Void) -> BannerWindow {
        let id = xcb_generate_id(connection)
        let events = XCB_EVENT_MASK_EXPOSURE.rawValue | XCB_EVENT_MASK_BUTTON_PRESS.rawValue | XCB_EVENT_MASK_ENTER_WINDOW.rawValue
            | XCB_EVENT_MASK_LEAVE_WINDOW.rawValue | XCB_EVENT_MASK_POINTER_MOTION.rawValue
        // Values in the order of their mask bits; a window of another depth than the root's
        // needs its own colormap and border pixel.
        if let translucent {
            let mask = XCB_CW_BACK_PIXEL.rawValue | XCB_CW_BORDER_PIXEL.rawValue | XCB_CW_OVERRIDE_REDIRECT.rawValue
                | XCB_CW_EVENT_MASK.rawValue | XCB_CW_COLORMAP.rawValue
            xcb_create_window(connection, 32, id, screen.pointee.root, 0, 0, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue),
                              translucent.visual.pointee.visual_id, mask, [0, 0, 1, events, translucent.colormap])
        } else {
            xcb_create_window(connection, UInt8(XCB_COPY_FROM_PARENT), id, screen.pointee.root, 0, 0, 1, 1, 0,
                              UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), screen.pointee.root_visual,
                              XCB_CW_OVERRIDE_REDIRECT.rawValue | XCB_CW_EVENT_MASK.rawValue, [1, events])
        }
        setText(id, xcb_atom_t(XCB_ATOM_WM_NAME.rawValue), xcb_atom_t(XCB_ATOM_STRING.rawValue), title)
        if let name = atoms["_NET_WM_NAME"], let utf8 = atoms["UTF8_STRING"] { setText(id, name, utf8, title) }
        setText(id, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), xcb_atom_t(XCB_ATOM_STRING.rawValue), "chime-banners\0chime-banners\0")
        if let type = atoms["_NET_WM_WINDOW_TYPE"], var notification = atoms["_NET_WM_WINDOW_TYPE_NOTIFICATION"] {
            xcb_change_property(connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), id, type, xcb_atom_t(XCB_ATOM_ATOM.rawValue), 32, 1, &notification)
        }
        let surface = cairo_xcb_surface_create(connection, id, translucent?.visual ?? visual, 1, 1)!
        cairo_surface_set_device_scale(surface, Double(scale), Double(scale))
        let window = X11Window(screen: self, id: id, surface: surface, draw: draw)
        windows[id] = Weak(window: window)
        return window
    }

    /// The startup id that lets the app raise its window for this click (the startup
    /// notification spec): unique, with the click's X server time after "_TIME".
    func activationToken(appName: String, _ done: @escaping (String) -> Void) {
        clicks += 1
        let app = appName.unicodeScalars.filter { $0.isASCII && $0 != " " && $0 != "_" }.map(String.init).joined()
        done("chime-banners-\(getpid())-\(app.isEmpty ? "app" : app)-\(clicks)_TIME\(lastEventTime)")
    }

    func forget(_ window: X11Window) {
        windows[window.id] = nil
        xcb_destroy_window(connection, window.id)
        xcb_flush(connection)
    }

    private func setText(_ window: xcb_window_t, _ property: xcb_atom_t, _ type: xcb_atom_t, _ text: String) {
        var bytes = Array(text.utf8)
        xcb_change_property(connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 8, UInt32(bytes.count), &bytes)
    }

    /// Takes every event that has come, and hands each to its window.
    private func read() -> Bool {
        handleEach { xcb_poll_for_event(connection) }
        guard xcb_connection_has_error(connection) == 0 else {
            watch = nil
            ended()
            return false
        }
        xcb_flush(connection)
        return true
    }

    private var drainScheduled = false

    /// Handles, once the loop is idle, the events xcb has read already: waiting for a reply (cairo
    /// does, drawing) reads every event that came before it off the socket, and those would wait
    /// unseen in xcb's queue until something else came, since the socket no longer says readable.
    func drainSoon() {
        guard !drainScheduled else { return }
        drainScheduled = true
        GLibSources.idle { [weak self] in
            guard let self else { return false }
            drainScheduled = false
            handleEach { xcb_poll_for_queued_event(connection) }
            xcb_flush(connection)
            return false
        }
    }

    private func units(_ pixels: Int16) -> Double { Double(pixels) / Double(scale) }

    private func handleEach(_ next: () -> UnsafeMutablePointer<xcb_generic_event_t>?) {
        while let event = next() { handle(event) }
        if areaChanged {
            areaChanged = false
            changed()
        }
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        defer { free(event) }
        let raw = UnsafeRawPointer(event)
        switch Int32(event.pointee.response_type & 0x7f) {
        case XCB_EXPOSE:
            let expose = raw.load(as: xcb_expose_event_t.self)
            if expose.count == 0 { windows[expose.window]?.window?.redraw() }
        case XCB_BUTTON_PRESS:
            let press = raw.load(as: xcb_button_press_event_t.self)
            lastEventTime = press.time
            windows[press.event]?.window?.pressed?(Int(press.detail), units(press.event_x), units(press.event_y))
        case XCB_MOTION_NOTIFY:
            let motion = raw.load(as: xcb_motion_notify_event_t.self)
            windows[motion.event]?.window?.moved?(units(motion.event_x), units(motion.event_y))
        case XCB_PROPERTY_NOTIFY:
            let notify = raw.load(as: xcb_property_notify_event_t.self)
            if notify.atom == atoms["_NET_WORKAREA"] {
                knownWorkArea = nil
                areaChanged = true
            } else if notify.window == xsettings?.owner, notify.atom == atoms["_XSETTINGS_SETTINGS"] {
                xsettings = Self.desktopSettings(connection, root: screen.pointee.root, atoms: atoms, screen: screenNumber,
                                                 fixedScale: fixedScale)
                desktopChanged()
            }
        case _ where randrEvents.map { X11Monitors.isChange(event.pointee.response_type & 0x7f, firstEvent: $0) } ?? false:
            knownMonitors = nil
            areaChanged = true
        case XCB_ENTER_NOTIFY, XCB_LEAVE_NOTIFY:
            let crossing = raw.load(as: xcb_enter_notify_event_t.self)
            windows[crossing.event]?.window?.crossed?(Int32(event.pointee.response_type & 0x7f) == XCB_ENTER_NOTIFY)
        default:
            break
        }
    }

}

/// One override-redirect window and the cairo surface drawn into it.
final class X11Window: BannerWindow {
    let id: xcb_window_t
    private unowned let screen: X11Screen
    private let surface: OpaquePointer
    private let draw: (OpaquePointer) -> Void
    var pressed: ((Int, Double, Double) -> Void)?
    var moved: ((Double, Double) -> Void)?
    var crossed: ((Bool) -> Void)?
    private var frame = (x: 0, y: 0, width: 0, height: 0)
    private var mapped = false

    init(screen: X11Screen, id: xcb_window_t, surface: OpaquePointer, draw: @escaping (OpaquePointer) -> Void) {
        self.screen = screen
        self.id = id
        self.surface = surface
        self.draw = draw
    }

    deinit {
        cairo_surface_destroy(surface)
        screen.forget(self)
    }

    /// Places the window and shows it; drawn when the server says it is exposed.
    func place(_ placement: WindowPlacement) {
        let scale = screen.scale
        let (x, y, width, height) = ((placement.area.x + placement.x) * scale, (placement.area.y + placement.y) * scale,
                                     placement.width * scale, placement.height * scale)
        let connection = screen.connection
        if (x, y, width, height) != frame {
            frame = (x, y, width, height)
            let mask = UInt16(XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
                              | XCB_CONFIG_WINDOW_HEIGHT.rawValue)
            let values: [UInt32] = [UInt32(bitPattern: Int32(x)), UInt32(bitPattern: Int32(y)), UInt32(max(1, width)), UInt32(max(1, height))]
            xcb_configure_window(connection, id, mask, values)
            cairo_xcb_surface_set_size(surface, Int32(max(1, width)), Int32(max(1, height)))
            if mapped { redraw() }
        }
        if !mapped {
            mapped = true
            xcb_map_window(connection, id)
        }
        xcb_flush(connection)
        screen.drainSoon()
    }

    func yield(_ below: Bool) {}

    func hide() {
        guard mapped else { return }
        mapped = false
        xcb_unmap_window(screen.connection, id)
        xcb_flush(screen.connection)
    }

    func redraw() {
        guard mapped, let cr = cairo_create(surface) else { return }
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        xcb_flush(screen.connection)
        screen.drainSoon()
    }
}
