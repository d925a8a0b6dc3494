import CGtk
import ChimeControl
import ChimeCore
import ChimeGLib

/// The reply field or the menu of actions chime-banners asks for over one of its banners: a
/// GTK window of its own that holds the keyboard while it is open (input methods, keys, screen
/// readers work as in any GTK field), and ends (`done`) once it has done its one thing or
/// Escape, or a click elsewhere, closes it.
public final class InteractionWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let layerShell: Bool
    private let done: () -> Void
    /// Each menu item is this tall, so the items stand where GTK's menu puts them.
    static let itemHeight: Int32 = 26

    /// nil when there is nothing to open (a menu without actions, a reply nobody offered).
    public init?(_ interaction: Interaction, content: BannerContent, settings: PopupSettings,
                 callbacks: PopupPresenter.Callbacks, done: @escaping () -> Void) {
        layerShell = gtk_layer_is_supported() != 0
        self.done = done
        let id = content.id
        let window = OverlayWindow.make(layerShell: layerShell, keyboard: true)
        self.window = window
        window.addClass("chime-banner")
        window.addClass(content.level.rawValue)
        var frame = (x: interaction.x, y: interaction.y, width: interaction.width, height: interaction.height)
        switch interaction.kind {
        case .reply:
            guard let placeholder = content.replyPlaceholder else { return nil }
            gtk_window_set_title(window.cast(GtkWindow.self), "chime-reply-\(id)")
            let (row, _) = ReplyField.make(content, placeholder: placeholder) { text in
                if !text.isEmpty { callbacks.reply(id, text) }
                done()
            }
            gtk_container_add(window.cast(GtkContainer.self), row)
            gtk_widget_set_size_request(window, Int32(frame.width), Int32(frame.height))
        case .menu, .more:
            let actions = interaction.kind == .menu ? content.menu : content.moreActions
            guard !actions.isEmpty else { return nil }
            // Named as GTK's menus of the banners are, so a test (or a script) finds it.
            gtk_window_set_title(window.cast(GtkWindow.self), "chime-actions-\(id)")
            window.addClass("chime-actions")
            let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            for action in actions {
                let item = gtk_button_new_with_label(action.label)!
                gtk_button_set_relief(item.cast(GtkButton.self), GTK_RELIEF_NONE)
                if let label = gtk_bin_get_child(item.cast(GtkBin.self)) { gtk_label_set_xalign(label.cast(GtkLabel.self), 0) }
                gtk_widget_set_size_request(item, -1, Self.itemHeight)
                item.addClass("menu-item")
                if action.destructive { item.addClass("destructive-action") }
                GtkSignals.connect(item.raw, "clicked") {
                    callbacks.invoke(id, action.key, ActivationToken.forCurrentEvent(content) ?? "")
                    done()
                }
                gtk_box_pack_start(column.cast(GtkBox.self), item, 0, 0, 0)
            }
            gtk_container_add(window.cast(GtkContainer.self), column)
            gtk_widget_show_all(column)
            var minimum: Int32 = 0, natural: Int32 = 0
            gtk_widget_get_preferred_width(window, &minimum, &natural)
            let width = Int(max(natural, 160))
            gtk_widget_get_preferred_height_for_width(window, Int32(width), &minimum, &natural)
            let height = Int(max(minimum, natural))
            gtk_widget_set_size_request(window, Int32(width), Int32(height))
            frame = interaction.kind == .menu
                // Under the pointer, as a menu opens: its first item just below it.
                ? (interaction.x, interaction.y + 4, width, height)
                // Under the "more" button, its right edge on the button's.
                : (interaction.x + interaction.width - width, interaction.y + interaction.height, width, height)
        }
        let area = GdkRectangle(x: Int32(interaction.area.x), y: Int32(interaction.area.y),
                                width: Int32(interaction.area.width), height: Int32(interaction.area.height))
        let (monitor, _) = OverlayWindow.monitor(named: settings.output, layerShell: layerShell)
        OverlayWindow.place(window, .init(x: frame.x, y: frame.y, width: frame.width, height: frame.height, area: area,
                                          anchor: settings.anchor), monitor: monitor, layerShell: layerShell)
        GtkSignals.connectEvent(window.raw, "key-press-event") { event in
            let key = UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventKey.self).pointee.keyval
            if key == UInt32(GDK_KEY_Escape) { done() }
            return false
        }
        // A click outside it (the pointer is grabbed on X11) closes it.
        GtkSignals.connectEvent(window.raw, "button-press-event") { [window] event in
            let press = UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventButton.self).pointee
            var allocation = GtkAllocation()
            gtk_widget_get_allocation(window, &allocation)
            if press.x < 0 || press.y < 0 || press.x >= Double(allocation.width) || press.y >= Double(allocation.height) { done() }
            return false
        }
        GtkSignals.connectEvent(window.raw, "map-event") { [layerShell] _ in
            Self.takeKeyboard(window, layerShell: layerShell)
            return false
        }
        gtk_widget_show_all(window)
    }

    deinit {
        if !layerShell, let seat = gdk_display_get_default_seat(gdk_display_get_default()) { gdk_seat_ungrab(seat) }
        gtk_widget_destroy(window)
    }

    /// Takes the keyboard as it appears, as a menu does: on Wayland the layer surface asks for it;
    /// on X11, where no window manager gives an override-redirect window the focus, it grabs the
    /// keyboard and the pointer.
    private static func takeKeyboard(_ window: UnsafeMutablePointer<GtkWidget>, layerShell: Bool) {
        if layerShell { return OverlayWindow.takeKeyboard(window, true) }
        guard let seat = gdk_display_get_default_seat(gdk_display_get_default()), let gdkWindow = gtk_widget_get_window(window) else { return }
        gdk_seat_grab(seat, gdkWindow, GDK_SEAT_CAPABILITY_ALL, 1, nil, nil, nil, nil)
    }
}
