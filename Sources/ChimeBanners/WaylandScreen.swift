import CBannerSurfaces
import CDraw
import ChimeGLib
import Glibc

/// A wlroots compositor (sway, Hyprland, river, labwc, Wayfire): banners are overlay layer
/// surfaces (wlr-layer-shell) drawn into shared-memory buffers, the pointer comes from the seat,
/// and a click's activation token from xdg-activation. Events are read on the main loop; only
/// the start waits for the compositor, to learn what it offers.
final class WaylandScreen: BannerScreen {
    private var display: OpaquePointer?
    private var registry: OpaquePointer?
    fileprivate var compositor: OpaquePointer?
    fileprivate var shm: OpaquePointer?
    fileprivate var layerShell: OpaquePointer?
    private var seat: OpaquePointer?
    private var pointer: OpaquePointer?
    private var activation: OpaquePointer?
    /// Outputs by their name in the registry, with the name the compositor gives them (DP-1)
    /// and their scale (2 on most HiDPI screens).
    private var outputs: [UInt32: Output] = [:]
    private struct Output {
        let proxy: OpaquePointer
        var name = ""
        var scale = 1
    }
    private var watch: UInt32?
    /// The windows made here, by surface; each forgets itself when it goes.
    private var windows: [OpaquePointer: Weak] = [:]
    private struct Weak { weak var window: WaylandWindow? }
    /// The window under the pointer, where it is, and the serial of the last click (for tokens).
    private weak var pointed: WaylandWindow?
    private var pointerAt = (x: 0.0, y: 0.0)
    private var clickSerial: UInt32 = 0
    /// Activation tokens asked for, with what to do with each when it comes.
    private var tokens: [OpaquePointer: (String) -> Void] = [:]
    var ended: () -> Void = {}
    /// Never called: the compositor places surfaces by their anchors, on any output's size.
    var changed: () -> Void = {}

    var xsettings: XSettings? { nil }
    /// Never called: GNOME's settings are read when chime-banners starts.
    var desktopChanged: () -> Void = {}

    /// Surfaces with an alpha channel: the compositor blends their corners.
    var isTranslucent: Bool { true }

    /// The compositor places each surface by its distances to the anchored edges, so the stack
    /// needs no real size: only those distances are used.
    func workArea(output: String?) -> ScreenArea { ScreenArea(x: 0, y: 0, width: 1920, height: 1080) }

    /// Connects to the compositor `name` names; nil when it cannot be reached. Throws when it
    /// offers no wlr-layer-shell (GNOME's does not): banners cannot be placed there.
    init?(display name: String) throws(LightBanners.CannotPlace) {
        guard let display = wl_display_connect(name) else { return nil }
        self.display = display
        let me = Unmanaged.passUnretained(self).toOpaque()
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Self.registryListener, me)
        // The globals, then what they say of themselves (the seat's pointer, the outputs' names).
        wl_display_roundtrip(display)
        wl_display_roundtrip(display)
        guard compositor != nil, shm != nil, layerShell != nil else {
            disconnect()
            throw LightBanners.CannotPlace()
        }
        watch = GLibSources.readable(wl_display_get_fd(display)) { [weak self] in self?.read() ?? false }
    }

    deinit { disconnect() }

    private func read() -> Bool {
        guard let display else { return false }
        guard wl_display_dispatch(display) >= 0 else {
            watch = nil
            disconnect()
            ended()
            return false
        }
        wl_display_flush(display)
        return true
    }

    func flush() {
        if let display { wl_display_flush(display) }
    }

    private func disconnect() {
        if let watch { GLibSources.remove(watch) }
        watch = nil
        guard let display else { return }
        for token in tokens.keys { xdg_activation_token_v1_destroy(token) }
        for output in outputs.values { wl_output_destroy(output.proxy) }
        if let pointer { wl_pointer_destroy(pointer) }
        if let seat { wl_seat_destroy(seat) }
        if let activation { xdg_activation_v1_destroy(activation) }
        if let layerShell { zwlr_layer_shell_v1_destroy(layerShell) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        (tokens, outputs, pointer, seat, activation, layerShell, shm, compositor, registry) = ([:], [:], nil, nil, nil, nil, nil, nil, nil)
        wl_display_disconnect(display)
        self.display = nil
    }

    func makeWindow(title: String, output: String?, draw: @escaping (OpaquePointer) -> Void) -> BannerWindow {
        let window = WaylandWindow(screen: self, surface: wl_compositor_create_surface(compositor)!, output: self.output(named: output),
                                   scale: scale(output: output), draw: draw)
        windows[window.surface] = Weak(window: window)
        return window
    }

    /// A window is drawn first at the scale of its output, else of the finest there is (the
    /// compositor says which it entered only once it is shown): sharp at once, rarely drawn twice.
    func scale(output: String?) -> Int {
        self.output(named: output).flatMap(scale(of:)) ?? outputs.values.map(\.scale).max() ?? 1
    }

    /// The output the compositor calls `name`, while it has one.
    func output(named name: String?) -> OpaquePointer? {
        name.flatMap { name in outputs.values.first { $0.name == name }?.proxy }
    }

    /// The scale of an output a surface entered.
    func scale(of output: OpaquePointer) -> Int? {
        outputs.values.first { $0.proxy == output }?.scale
    }

    func forget(_ window: WaylandWindow) {
        windows[window.surface] = nil
    }

    /// Asks the compositor for a token for the click just made on the window under the pointer;
    /// `done` gets it when it comes ("" without xdg-activation).
    func activationToken(appName: String, _ done: @escaping (String) -> Void) {
        guard let activation, let seat, let token = xdg_activation_v1_get_activation_token(activation) else { return done("") }
        tokens[token] = done
        xdg_activation_token_v1_add_listener(token, Self.tokenListener, Unmanaged.passUnretained(self).toOpaque())
        xdg_activation_token_v1_set_serial(token, clickSerial, seat)
        if let surface = pointed?.surface { xdg_activation_token_v1_set_surface(token, surface) }
        xdg_activation_token_v1_commit(token)
        flush()
    }

    // MARK: The compositor's events

    private static func me(_ data: UnsafeMutableRawPointer?) -> WaylandScreen {
        Unmanaged<WaylandScreen>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let registryListener = permanentCallbackTable(wl_registry_listener(
        global: { data, registry, name, interface, version in
            let me = me(data)
            func bind(_ interface: UnsafePointer<wl_interface>, _ highest: UInt32) -> OpaquePointer? {
                OpaquePointer(wl_registry_bind(registry, name, interface, min(version, highest)))
            }
            switch String(cString: interface!) {
            case "wl_compositor": me.compositor = bind(chime_compositor_interface(), 4)
            case "wl_shm": me.shm = bind(chime_shm_interface(), 1)
            case "zwlr_layer_shell_v1": me.layerShell = bind(chime_layer_shell_interface(), 4)
            case "xdg_activation_v1": me.activation = bind(chime_activation_interface(), 1)
            case "wl_seat" where me.seat == nil:
                me.seat = bind(chime_seat_interface(), 5)
                wl_seat_add_listener(me.seat, seatListener, data)
            case "wl_output":
                // Version 4 says the output's name, which `[popups] output` names.
                guard let output = bind(chime_banner_output_interface(), 4) else { return }
                me.outputs[name] = Output(proxy: output)
                wl_output_add_listener(output, outputListener, data)
            default: break
            }
        },
        global_remove: { data, _, name in
            guard let output = me(data).outputs.removeValue(forKey: name) else { return }
            wl_output_destroy(output.proxy)
        }))

    nonisolated(unsafe) private static let outputListener = permanentCallbackTable(wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { data, _ in
            // A new scale: the windows on the output draw at it.
            for window in me(data).windows.values { window.window?.rescale() }
        },
        scale: { data, output, factor in
            let me = me(data)
            guard let key = me.outputs.first(where: { $0.value.proxy == output })?.key else { return }
            me.outputs[key]?.scale = max(1, Int(factor))
        },
        name: { data, output, name in
            let me = me(data)
            guard let key = me.outputs.first(where: { $0.value.proxy == output })?.key else { return }
            me.outputs[key]?.name = name.map { String(cString: $0) } ?? ""
        },
        description: { _, _, _ in }))

    nonisolated(unsafe) private static let seatListener = permanentCallbackTable(wl_seat_listener(
        capabilities: { data, seat, capabilities in
            let me = me(data)
            let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
            if hasPointer, me.pointer == nil {
                me.pointer = wl_seat_get_pointer(seat)
                wl_pointer_add_listener(me.pointer, pointerListener, data)
            } else if !hasPointer, let pointer = me.pointer {
                wl_pointer_destroy(pointer)
                me.pointer = nil
            }
        },
        name: { _, _, _ in }))

    nonisolated(unsafe) private static let pointerListener = permanentCallbackTable(wl_pointer_listener(
        enter: { data, _, _, surface, x, y in
            let me = me(data)
            me.pointed = surface.flatMap { me.windows[$0]?.window }
            me.pointerAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
            me.pointed?.crossed?(true)
            me.pointed?.moved?(me.pointerAt.x, me.pointerAt.y)
        },
        leave: { data, _, _, _ in
            let me = me(data)
            me.pointed?.crossed?(false)
            me.pointed = nil
        },
        motion: { data, _, _, x, y in
            let me = me(data)
            me.pointerAt = (wl_fixed_to_double(x), wl_fixed_to_double(y))
            me.pointed?.moved?(me.pointerAt.x, me.pointerAt.y)
        },
        button: { data, _, serial, _, button, state in
            let me = me(data)
            guard state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue else { return }
            // Linux's input codes: BTN_LEFT, BTN_RIGHT, BTN_MIDDLE.
            let number = switch button {
            case 0x110: 1
            case 0x111: 3
            case 0x112: 2
            default: 0
            }
            me.clickSerial = serial
            me.pointed?.pressed?(number, me.pointerAt.x, me.pointerAt.y)
        },
        // The rest of version 5's events; version 8's (value120) is never sent to a version 5 seat.
        axis: { _, _, _, _, _ in },
        frame: { _, _ in }, axis_source: { _, _, _ in }, axis_stop: { _, _, _, _ in }, axis_discrete: { _, _, _, _ in },
        axis_value120: nil))

    nonisolated(unsafe) private static let tokenListener = permanentCallbackTable(xdg_activation_token_v1_listener(
        done: { data, token, value in
            let me = me(data)
            guard let token, let done = me.tokens.removeValue(forKey: token) else { return }
            xdg_activation_token_v1_destroy(token)
            done(value.map { String(cString: $0) } ?? "")
        }))
}

/// One layer surface of a banner: anchored to the stack's corner, placed by its margins, drawn
/// into a shared-memory buffer whenever the compositor has said its size.
final class WaylandWindow: BannerWindow {
    let surface: OpaquePointer
    private unowned let screen: WaylandScreen
    private var layer: OpaquePointer?
    private let draw: (OpaquePointer) -> Void
    var pressed: ((Int, Double, Double) -> Void)?
    var moved: ((Double, Double) -> Void)?
    var crossed: ((Bool) -> Void)?
    private var placement: WindowPlacement?
    /// The size the compositor configured, once it has: then the surface may be drawn.
    private var configured: (width: Int, height: Int)?
    private var buffers: [ShmBuffer] = []
    /// Pixels per unit of its size: the finest scale of the outputs it is on.
    private var scale: Int
    private var entered: Set<OpaquePointer> = []

    init(screen: WaylandScreen, surface: OpaquePointer, output: OpaquePointer?, scale: Int, draw: @escaping (OpaquePointer) -> Void) {
        self.screen = screen
        self.surface = surface
        self.scale = scale
        self.draw = draw
        wl_surface_add_listener(surface, Self.surfaceListener, Unmanaged.passUnretained(self).toOpaque())
        layer = zwlr_layer_shell_v1_get_layer_surface(screen.layerShell, surface, output, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue,
                                                      "chime-banners")
        zwlr_layer_surface_v1_add_listener(layer, Self.layerListener, Unmanaged.passUnretained(self).toOpaque())
        // No keyboard: a banner must never take it from the window the person types in.
        zwlr_layer_surface_v1_set_keyboard_interactivity(layer, 0)
    }

    deinit {
        screen.forget(self)
        if let layer { zwlr_layer_surface_v1_destroy(layer) }
        wl_surface_destroy(surface)
        screen.flush()
    }

    func place(_ placement: WindowPlacement) {
        guard let layer, placement != self.placement else { return }
        let first = self.placement == nil
        let resized = placement.width != self.placement?.width || placement.height != self.placement?.height
        self.placement = placement
        let anchor = placement.anchor
        let left = anchor == .topLeft || anchor == .bottomLeft
        let right = anchor == .topRight || anchor == .bottomRight
        var edges: UInt32 = anchor.isTop ? ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue : ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
        if left { edges |= ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue }
        if right { edges |= ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue }
        let top = anchor.isTop ? placement.y : 0
        let bottom = anchor.isTop ? 0 : placement.area.height - placement.y - placement.height
        let leftMargin = left ? placement.x : 0
        let rightMargin = right ? placement.area.width - placement.x - placement.width : 0
        zwlr_layer_surface_v1_set_size(layer, UInt32(placement.width), UInt32(placement.height))
        zwlr_layer_surface_v1_set_anchor(layer, edges)
        zwlr_layer_surface_v1_set_margin(layer, Int32(top), Int32(rightMargin), Int32(bottom), Int32(leftMargin))
        if first || resized || configured == nil {
            // The compositor answers with a configure; drawn then.
            configured = nil
            wl_surface_commit(surface)
        } else {
            redraw()
        }
        screen.flush()
    }

    func yield(_ below: Bool) {
        guard let layer, zwlr_layer_surface_v1_get_version(layer) >= 2 else { return }
        zwlr_layer_surface_v1_set_layer(layer, below ? ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue : ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue)
        wl_surface_commit(surface)
        screen.flush()
    }

    func hide() {
        guard placement != nil else { return }
        // Unmapped: back to the state right after it was made; the next place maps it again.
        placement = nil
        configured = nil
        wl_surface_attach(surface, nil, 0, 0)
        wl_surface_commit(surface)
        screen.flush()
    }

    /// Draws at the finest scale of the outputs it entered, when that changed.
    func rescale() {
        let finest = entered.compactMap { screen.scale(of: $0) }.max() ?? scale
        guard finest != scale else { return }
        scale = finest
        redraw()
    }

    func redraw() {
        guard let configured, configured.width > 0, configured.height > 0, let shm = screen.shm else { return }
        let (width, height) = (configured.width * scale, configured.height * scale)
        buffers.removeAll { !$0.busy && ($0.width, $0.height) != (width, height) }
        let buffer: ShmBuffer
        if let free = buffers.first(where: { !$0.busy && ($0.width, $0.height) == (width, height) }) {
            buffer = free
        } else if let made = ShmBuffer(shm: shm, width: width, height: height) {
            buffer = made
            buffers.append(made)
        } else {
            return
        }
        cairo_surface_set_device_scale(buffer.cairo, Double(scale), Double(scale))
        guard let cr = cairo_create(buffer.cairo) else { return }
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(buffer.cairo)
        buffer.busy = true
        wl_surface_set_buffer_scale(surface, Int32(scale))
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(width), Int32(height))
        wl_surface_commit(surface)
        screen.flush()
    }

    nonisolated(unsafe) private static let surfaceListener = permanentCallbackTable(wl_surface_listener(
        enter: { data, _, output in
            let me = Unmanaged<WaylandWindow>.fromOpaque(data!).takeUnretainedValue()
            if let output { me.entered.insert(output) }
            me.rescale()
        },
        leave: { data, _, output in
            let me = Unmanaged<WaylandWindow>.fromOpaque(data!).takeUnretainedValue()
            if let output { me.entered.remove(output) }
            me.rescale()
        }))

    nonisolated(unsafe) private static let layerListener = permanentCallbackTable(zwlr_layer_surface_v1_listener(
        configure: { data, layer, serial, width, height in
            let me = Unmanaged<WaylandWindow>.fromOpaque(data!).takeUnretainedValue()
            zwlr_layer_surface_v1_ack_configure(layer, serial)
            guard let placement = me.placement else { return }
            me.configured = (width > 0 ? Int(width) : placement.width, height > 0 ? Int(height) : placement.height)
            me.redraw()
        },
        closed: { data, _ in
            // The compositor took it away (its output went): shown again on the next place.
            let me = Unmanaged<WaylandWindow>.fromOpaque(data!).takeUnretainedValue()
            me.placement = nil
            me.configured = nil
        }))
}

/// A buffer in shared memory the compositor reads a banner's pixels from, with the cairo
/// surface that draws into it. Busy from its attach until the compositor releases it.
final class ShmBuffer {
    let buffer: OpaquePointer
    let cairo: OpaquePointer
    let width: Int, height: Int
    var busy = false
    private let memory: UnsafeMutableRawPointer
    private let length: Int

    init?(shm: OpaquePointer, width: Int, height: Int) {
        let stride = width * 4
        length = stride * height
        let fd = chime_memfd("chime-banner")
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard ftruncate(fd, off_t(length)) == 0,
              let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else { return nil }
        self.memory = memory
        self.width = width
        self.height = height
        let pool = wl_shm_create_pool(shm, fd, Int32(length))
        buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        cairo = cairo_image_surface_create_for_data(memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                    Int32(width), Int32(height), Int32(stride))
        wl_buffer_add_listener(buffer, Self.bufferListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        cairo_surface_destroy(cairo)
        wl_buffer_destroy(buffer)
        munmap(memory, length)
    }

    nonisolated(unsafe) private static let bufferListener = permanentCallbackTable(wl_buffer_listener(
        release: { data, _ in Unmanaged<ShmBuffer>.fromOpaque(data!).takeUnretainedValue().busy = false }))
}
