import CGtk
import ChimeCore

/// One banner: a GTK window showing a notification. It reports what the user does through
/// `actions`; where it stands on the screen is the presenter's business.
final class Banner {
    struct Actions {
        var invoke: (String) -> Void
        var dismiss: () -> Void
        var reply: (String) -> Void
        var hover: (Bool) -> Void
    }

    let id: UInt32
    let window: UnsafeMutablePointer<GtkWidget>

    init(_ content: BannerContent, settings: PopupSettings, layerShell: Bool, actions: Actions) {
        id = content.id
        // On X11 a popup window is placed exactly where we say; on Wayland the layer shell does it.
        window = gtk_window_new(layerShell ? GTK_WINDOW_TOPLEVEL : GTK_WINDOW_POPUP)
        let gtkWindow = window.cast(GtkWindow.self)
        gtk_window_set_title(gtkWindow, "chime-banner-\(content.id)")
        gtk_window_set_type_hint(gtkWindow, GDK_WINDOW_TYPE_HINT_NOTIFICATION)
        gtk_window_set_decorated(gtkWindow, 0)
        gtk_window_set_resizable(gtkWindow, 0)
        gtk_window_set_accept_focus(gtkWindow, content.replyPlaceholder != nil ? 1 : 0)
        gtk_widget_set_size_request(window, Int32(settings.width), -1)
        window.addClass("chime-banner")
        window.addClass(content.level.rawValue)
        if layerShell {
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_OVERLAY)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 1)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, 1)
            gtk_layer_set_keyboard_interactivity(gtkWindow, content.replyPlaceholder != nil ? 1 : 0)
        }
        // An event box takes the clicks on the banner itself; buttons inside take their own.
        let events = gtk_event_box_new()!
        gtk_widget_add_events(events, Int32(GDK_BUTTON_PRESS_MASK.rawValue | GDK_ENTER_NOTIFY_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue))
        gtk_container_add(window.cast(GtkContainer.self), events)
        gtk_container_add(events.cast(GtkContainer.self), Self.body(content, settings: settings, actions: actions))
        GtkSignals.connectEvent(events.raw, "button-press-event") { event in
            let button = UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventButton.self).pointee.button
            if button == 1, content.hasDefaultAction { actions.invoke(Action.defaultKey) } else { actions.dismiss() }
            return true
        }
        GtkSignals.connectEvent(events.raw, "enter-notify-event") { _ in actions.hover(true); return false }
        GtkSignals.connectEvent(events.raw, "leave-notify-event") { event in
            // Moving onto a button inside is not leaving the banner.
            let crossing = UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventCrossing.self).pointee
            if crossing.detail != GDK_NOTIFY_INFERIOR { actions.hover(false) }
            return false
        }
        gtk_widget_show_all(events)
    }

    deinit { gtk_widget_destroy(window) }

    /// The height GTK wants at the configured width.
    var height: Int {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_get_preferred_height(window, &minimum, &natural)
        return Int(max(minimum, natural))
    }

    func move(x: Int, y: Int, monitor: OpaquePointer?, origin: (x: Int, y: Int), layerShell: Bool) {
        let gtkWindow = window.cast(GtkWindow.self)
        if layerShell {
            if let monitor { gtk_layer_set_monitor(gtkWindow, monitor) }
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, Int32(x))
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, Int32(y))
        } else {
            gtk_window_move(gtkWindow, Int32(origin.x + x), Int32(origin.y + y))
        }
        // Shown once placed, so it never flashes where GTK would put it.
        gtk_widget_show(window)
    }

    // MARK: Content

    private static func body(_ content: BannerContent, settings: PopupSettings, actions: Actions) -> UnsafeMutablePointer<GtkWidget> {
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        column.addClass("content")
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        if let icon = icon(content, size: settings.iconSize) {
            gtk_widget_set_valign(icon, GTK_ALIGN_START)
            gtk_box_pack_start(row.cast(GtkBox.self), icon, 0, 0, 0)
        }
        let texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        let header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_box_pack_start(header.cast(GtkBox.self), label(content.appName, markup: false, style: "app-name"), 1, 1, 0)
        let close = gtk_button_new_from_icon_name("window-close-symbolic", GTK_ICON_SIZE_MENU)!
        close.addClass("close")
        gtk_button_set_relief(close.cast(GtkButton.self), GTK_RELIEF_NONE)
        GtkSignals.connect(close.raw, "clicked") { actions.dismiss() }
        gtk_box_pack_end(header.cast(GtkBox.self), close, 0, 0, 0)
        gtk_box_pack_start(texts.cast(GtkBox.self), header, 0, 0, 0)
        gtk_box_pack_start(texts.cast(GtkBox.self), label(content.summary, markup: false, style: "summary"), 0, 0, 0)
        if !content.body.isEmpty {
            gtk_box_pack_start(texts.cast(GtkBox.self), label(PangoMarkup.from(content.body), markup: true, style: "body"), 0, 0, 0)
        }
        gtk_box_pack_start(row.cast(GtkBox.self), texts, 1, 1, 0)
        gtk_box_pack_start(column.cast(GtkBox.self), row, 0, 0, 0)
        if let progress = content.progress {
            let bar = gtk_progress_bar_new()!
            gtk_progress_bar_set_fraction(bar.cast(GtkProgressBar.self), Double(progress) / 100)
            gtk_box_pack_start(column.cast(GtkBox.self), bar, 0, 0, 0)
        }
        if let placeholder = content.replyPlaceholder {
            let entry = gtk_entry_new()!
            gtk_entry_set_placeholder_text(entry.cast(GtkEntry.self), placeholder)
            GtkSignals.connect(entry.raw, "activate") {
                let text = String(cString: gtk_entry_get_text(entry.cast(GtkEntry.self)))
                if !text.isEmpty { actions.reply(text) }
            }
            gtk_box_pack_start(column.cast(GtkBox.self), entry, 0, 0, 0)
        }
        if !content.buttons.isEmpty {
            let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
            gtk_box_set_homogeneous(buttons.cast(GtkBox.self), 1)
            for action in content.buttons {
                let button = content.actionIcons
                    ? gtk_button_new_from_icon_name(action.key, GTK_ICON_SIZE_BUTTON)!
                    : gtk_button_new_with_label(action.label)!
                if content.actionIcons { gtk_widget_set_tooltip_text(button, action.label) }
                if action.destructive { button.addClass("destructive-action") }
                GtkSignals.connect(button.raw, "clicked") { actions.invoke(action.key) }
                gtk_box_pack_start(buttons.cast(GtkBox.self), button, 1, 1, 0)
            }
            gtk_box_pack_start(column.cast(GtkBox.self), buttons, 0, 0, 0)
        }
        return column
    }

    private static func label(_ text: String, markup: Bool, style: String) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        if markup { gtk_label_set_markup(label.cast(GtkLabel.self), text) } else { gtk_label_set_text(label.cast(GtkLabel.self), text) }
        gtk_label_set_xalign(label.cast(GtkLabel.self), 0)
        gtk_label_set_line_wrap(label.cast(GtkLabel.self), 1)
        gtk_label_set_line_wrap_mode(label.cast(GtkLabel.self), PANGO_WRAP_WORD_CHAR)
        // A small natural width, so the label wraps to the banner's width instead of widening it.
        gtk_label_set_max_width_chars(label.cast(GtkLabel.self), 1)
        if style == "body" { gtk_label_set_lines(label.cast(GtkLabel.self), 6) }
        gtk_label_set_ellipsize(label.cast(GtkLabel.self), style == "body" ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE)
        label.addClass(style)
        return label
    }

    /// The image-data, else the icon file or themed name, scaled to the icon size.
    private static func icon(_ content: BannerContent, size: Int) -> UnsafeMutablePointer<GtkWidget>? {
        if let image = content.image, let pixbuf = Pixbufs.from(image, size: size) {
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            return gtk_image_new_from_pixbuf(pixbuf)
        }
        guard let icon = content.icon, !icon.isEmpty else { return nil }
        if icon.hasPrefix("/") {
            var error: UnsafeMutablePointer<GError>?
            guard let pixbuf = gdk_pixbuf_new_from_file_at_size(icon, Int32(size), Int32(size), &error) else {
                g_error_free(error)
                return nil
            }
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            return gtk_image_new_from_pixbuf(pixbuf)
        }
        let image = gtk_image_new_from_icon_name(icon, GTK_ICON_SIZE_DIALOG)!
        gtk_image_set_pixel_size(image.cast(GtkImage.self), Int32(size))
        return image
    }
}
