import CDesktop
import ChimeCore
import ChimeGLib

/// The focused window on a wlroots compositor (sway, Hyprland, river, labwc, Wayfire), from
/// wlr-foreign-toplevel-management: each window's app id, whether it is activated or
/// fullscreen, and the outputs it is on. Nothing waits on the compositor: its answers are read
/// on the main loop.
public final class WaylandToplevels: DesktopSource {
    private var display: OpaquePointer?
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    /// Answered once the compositor has announced its globals: then it is known whether it
    /// offers the protocol.
    private var announced: OpaquePointer?
    private var watch: UInt32?
    private var windows: [OpaquePointer: Toplevel] = [:]
    private var outputs: [OpaquePointer: String] = [:]
    /// Outputs by their name in the registry, for when one is unplugged.
    private var outputGlobals: [UInt32: OpaquePointer] = [:]
    private var reported: DesktopContext.Window??
    private var ending: DesktopSourceEnding?
    private let changed: (DesktopContext.Window?) -> Void
    private let ended: (DesktopSourceEnding) -> Void

    private struct Toplevel {
        var appID = ""
        var activated = false
        var fullscreen = false
        var outputs: [OpaquePointer] = []
    }

    /// Connects to the compositor `display` names; nil when it cannot be reached. `ended` is
    /// called once, on the main loop, when the compositor turns out not to offer the protocol
    /// or goes away.
    public init?(display name: String, changed: @escaping (DesktopContext.Window?) -> Void,
                 ended: @escaping (DesktopSourceEnding) -> Void) {
        guard let display = wl_display_connect(name) else { return nil }
        self.display = display
        self.changed = changed
        self.ended = ended
        let me = Unmanaged.passUnretained(self).toOpaque()
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Self.registryListener, me)
        announced = wl_display_sync(display)
        wl_callback_add_listener(announced, Self.announcedListener, me)
        wl_display_flush(display)
        watch = GLibSources.readable(wl_display_get_fd(display)) { [weak self] in self?.read() ?? false }
    }

    deinit { disconnect() }

    public var source: DesktopContext.Source { .wlrForeignToplevel }

    private func read() -> Bool {
        guard let display else { return false }
        if wl_display_dispatch(display) < 0 { ending = ending ?? .disconnected }
        wl_display_flush(display)
        guard let ending else { return true }
        watch = nil
        disconnect()
        // After the dispatch: whoever is told may let this watcher go.
        ended(ending)
        return false
    }

    private func disconnect() {
        if let watch { GLibSources.remove(watch) }
        watch = nil
        guard let display else { return }
        for handle in windows.keys { zwlr_foreign_toplevel_handle_v1_destroy(handle) }
        for output in outputs.keys { wl_output_destroy(output) }
        if let manager { zwlr_foreign_toplevel_manager_v1_destroy(manager) }
        if let announced { wl_callback_destroy(announced) }
        if let registry { wl_registry_destroy(registry) }
        (windows, outputs, outputGlobals, manager, announced, registry) = ([:], [:], [:], nil, nil, nil)
        wl_display_disconnect(display)
        self.display = nil
    }

    /// Says the focused window when it changed; called after each window's `done`.
    private func report() {
        let focused = windows.values.first { $0.activated }.map { window in
            DesktopContext.Window(appIDs: window.appID.isEmpty ? [] : [window.appID], fullscreen: window.fullscreen,
                                  output: window.outputs.first.flatMap { outputs[$0] })
        }
        if let reported, reported == focused { return }
        reported = .some(focused)
        changed(focused)
    }

    // MARK: The compositor's events

    private static func me(_ data: UnsafeMutableRawPointer?) -> WaylandToplevels {
        Unmanaged<WaylandToplevels>.fromOpaque(data!).takeUnretainedValue()
    }

    nonisolated(unsafe) private static let registryListener = permanentCallbackTable(wl_registry_listener(
        global: { data, registry, name, interface, version in
            let me = me(data)
            switch String(cString: interface!) {
            case "zwlr_foreign_toplevel_manager_v1" where me.manager == nil:
                me.manager = OpaquePointer(wl_registry_bind(registry, name, chime_toplevel_manager_interface(), min(version, 3)))
                zwlr_foreign_toplevel_manager_v1_add_listener(me.manager, managerListener, data)
            case "wl_output":
                // Version 4 says the output's name (DP-1, HDMI-A-1).
                guard let output = OpaquePointer(wl_registry_bind(registry, name, chime_output_interface(), min(version, 4))) else { return }
                me.outputs[output] = ""
                me.outputGlobals[name] = output
                wl_output_add_listener(output, outputListener, data)
            default: break
            }
        },
        global_remove: { data, _, name in
            let me = me(data)
            guard let output = me.outputGlobals.removeValue(forKey: name) else { return }
            me.outputs[output] = nil
            for (handle, window) in me.windows { me.windows[handle]?.outputs = window.outputs.filter { $0 != output } }
            wl_output_destroy(output)
        }))

    nonisolated(unsafe) private static let announcedListener = permanentCallbackTable(wl_callback_listener(
        done: { data, callback, _ in
            let me = me(data)
            wl_callback_destroy(callback)
            me.announced = nil
            if me.manager == nil { me.ending = .unsupported("the compositor does not offer wlr-foreign-toplevel-management") }
        }))

    nonisolated(unsafe) private static let managerListener = permanentCallbackTable(zwlr_foreign_toplevel_manager_v1_listener(
        toplevel: { data, _, handle in
            guard let handle else { return }
            me(data).windows[handle] = Toplevel()
            zwlr_foreign_toplevel_handle_v1_add_listener(handle, toplevelListener, data)
        },
        finished: { data, _ in
            me(data).ending = .unsupported("the compositor stopped telling windows apart")
        }))

    nonisolated(unsafe) private static let toplevelListener = permanentCallbackTable(zwlr_foreign_toplevel_handle_v1_listener(
        title: { _, _, _ in },
        app_id: { data, handle, appID in
            me(data).windows[handle!]?.appID = appID.map { String(cString: $0) } ?? ""
        },
        output_enter: { data, handle, output in
            guard let output else { return }
            me(data).windows[handle!]?.outputs.append(output)
        },
        output_leave: { data, handle, output in
            me(data).windows[handle!]?.outputs.removeAll { $0 == output }
        },
        state: { data, handle, states in
            let values = states.map { Array(UnsafeBufferPointer(start: $0.pointee.data?.assumingMemoryBound(to: UInt32.self),
                                                                count: $0.pointee.size / 4)) } ?? []
            me(data).windows[handle!]?.activated = values.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED.rawValue)
            me(data).windows[handle!]?.fullscreen = values.contains(ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN.rawValue)
        },
        done: { data, _ in me(data).report() },
        closed: { data, handle in
            let me = me(data)
            me.windows[handle!] = nil
            zwlr_foreign_toplevel_handle_v1_destroy(handle)
            me.report()
        },
        parent: { _, _, _ in }))

    nonisolated(unsafe) private static let outputListener = permanentCallbackTable(wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { _, _, _, _, _, _ in },
        done: { _, _ in },
        scale: { _, _, _ in },
        name: { data, output, name in
            me(data).outputs[output!] = name.map { String(cString: $0) } ?? ""
        },
        description: { _, _, _ in }))
}
