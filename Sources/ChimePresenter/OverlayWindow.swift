import CGtk
import ChimeCore

/// A window over everything else: an override-redirect popup on X11 (placed exactly where it
/// is told), a layer-shell overlay surface on Wayland (anchored to the stack's corner, placed by
/// margins from those edges, so it lands right on whichever output the compositor picks).
enum OverlayWindow {
    static func make(layerShell: Bool, keyboard: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new(layerShell ? GTK_WINDOW_TOPLEVEL : GTK_WINDOW_POPUP)!
        let gtkWindow = window.cast(GtkWindow.self)
        gtk_window_set_type_hint(gtkWindow, GDK_WINDOW_TYPE_HINT_NOTIFICATION)
        gtk_window_set_decorated(gtkWindow, 0)
        gtk_window_set_resizable(gtkWindow, 0)
        gtk_window_set_accept_focus(gtkWindow, keyboard ? 1 : 0)
        if layerShell {
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_OVERLAY)
            // No keyboard until the user asks for it (`takeKeyboard`): sway gives the keyboard to
            // an overlay surface that asks for any when it appears, so a banner with a reply
            // field would take it from the window the user is typing in.
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
        }
        return window
    }

    /// On Wayland, the user clicked into the banner's reply field or opened its menu (true), or is
    /// done with it: the banner holds the keyboard meanwhile, and gives it back after. Taken at
    /// once (the change committed and the compositor waited for), not with the next frame: a
    /// menu's popup grab that begins first keeps the keyboard where it was (sway), and keys typed
    /// meanwhile would go there.
    static func takeKeyboard(_ window: UnsafeMutablePointer<GtkWidget>, _ take: Bool) {
        gtk_layer_set_keyboard_mode(window.cast(GtkWindow.self),
                                    take ? GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE : GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
        guard let surface = gtk_widget_get_window(window).flatMap(gdk_wayland_window_get_wl_surface) else {
            // Not drawn yet: the change goes with its first frame.
            return gtk_widget_queue_draw(window)
        }
        wl_surface_commit(surface)
        if take { gdk_display_sync(gtk_widget_get_display(window)) }
    }

    /// The monitor a window goes to, by connector name (`output`); else on X11 the primary one or
    /// the first; else, on Wayland, where no output is primary, none: the compositor chooses (sway:
    /// the focused output). With it, the work area of that monitor, or of the first.
    static func monitor(named output: String?, layerShell: Bool) -> (OpaquePointer?, GdkRectangle) {
        let display = gdk_display_get_default()
        var chosen: OpaquePointer?
        if let output, let screen = gdk_screen_get_default() {
            for index in 0..<gdk_display_get_n_monitors(display) {
                guard let name = gdk_screen_get_monitor_plug_name(screen, index) else { continue }
                defer { g_free(name) }
                if String(cString: name) == output { chosen = gdk_display_get_monitor(display, index) }
            }
        }
        if chosen == nil, !layerShell {
            chosen = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0)
        }
        var area = GdkRectangle()
        if let measured = chosen ?? gdk_display_get_monitor(display, 0) { gdk_monitor_get_workarea(measured, &area) }
        return (chosen, area)
    }

    /// Where a window goes: its frame in a work area's coordinates, and the stack's corner.
    struct Placement {
        var x: Int, y: Int, width: Int, height: Int
        /// The work area the frame was worked out in: on Wayland only the distances to the
        /// anchored edges are used, and those do not depend on its size.
        var area: GdkRectangle
        var anchor: PopupSettings.Anchor
    }

    /// Places the window. On Wayland `monitor` is the output asked for (nil: the compositor's
    /// choice, the focused output); asked only when it changes, since asking moves a window on
    /// the screen (gtk-layer-shell maps it anew).
    static func place(_ window: UnsafeMutablePointer<GtkWidget>, _ placement: Placement, monitor: OpaquePointer?,
                      layerShell: Bool) {
        let gtkWindow = window.cast(GtkWindow.self)
        guard layerShell else {
            gtk_window_move(gtkWindow, placement.area.x + Int32(placement.x), placement.area.y + Int32(placement.y))
            return
        }
        if gtk_layer_get_monitor(gtkWindow) != monitor { gtk_layer_set_monitor(gtkWindow, monitor) }
        let left = placement.anchor == .topLeft || placement.anchor == .bottomLeft
        let right = placement.anchor == .topRight || placement.anchor == .bottomRight
        let margins: [(GtkLayerShellEdge, Bool, Int)] = [
            (GTK_LAYER_SHELL_EDGE_TOP, placement.anchor.isTop, placement.y),
            (GTK_LAYER_SHELL_EDGE_BOTTOM, !placement.anchor.isTop, Int(placement.area.height) - placement.y - placement.height),
            (GTK_LAYER_SHELL_EDGE_LEFT, left, placement.x),
            (GTK_LAYER_SHELL_EDGE_RIGHT, right, Int(placement.area.width) - placement.x - placement.width),
        ]
        for (edge, anchored, margin) in margins {
            gtk_layer_set_anchor(gtkWindow, edge, anchored ? 1 : 0)
            gtk_layer_set_margin(gtkWindow, edge, anchored ? Int32(margin) : 0)
        }
    }
}
