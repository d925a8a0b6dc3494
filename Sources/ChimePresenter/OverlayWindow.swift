import CGtk

/// A window over everything else: an override-redirect popup on X11 (placed exactly where it
/// is told), a layer-shell overlay surface on Wayland (anchored top-left, placed by margins).
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
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 1)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, 1)
            // No keyboard until the user asks for it (`takeKeyboard`): sway gives the keyboard to
            // an overlay surface that asks for any when it appears, so a banner with a reply
            // field would take it from the window the user is typing in.
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
        }
        return window
    }

    /// The user clicked into the banner's reply field (true), or is done with it: on Wayland the
    /// banner holds the keyboard meanwhile, and gives it back after. On X11 a click focuses it.
    static func takeKeyboard(_ window: UnsafeMutablePointer<GtkWidget>, _ take: Bool, layerShell: Bool) {
        guard layerShell else { return }
        gtk_layer_set_keyboard_mode(window.cast(GtkWindow.self),
                                    take ? GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE : GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
        // The change reaches the compositor with the surface's next commit: draw one.
        gtk_widget_queue_draw(window)
    }

    /// Puts the window's top-left corner at (x, y) of `monitor`, whose work area starts at `origin`.
    static func place(_ window: UnsafeMutablePointer<GtkWidget>, x: Int, y: Int, monitor: OpaquePointer?,
                      origin: (x: Int, y: Int), layerShell: Bool) {
        let gtkWindow = window.cast(GtkWindow.self)
        if layerShell {
            if let monitor { gtk_layer_set_monitor(gtkWindow, monitor) }
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, Int32(x))
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, Int32(y))
        } else {
            gtk_window_move(gtkWindow, Int32(origin.x + x), Int32(origin.y + y))
        }
    }
}
