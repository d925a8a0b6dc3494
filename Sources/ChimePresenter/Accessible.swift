import CGtk

/// Names for screen readers, where a control shows an icon and no words.
enum Accessible {
    static func name(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
        if let object = gtk_widget_get_accessible(widget) { atk_object_set_name(object, name) }
    }

    /// The small × of banners, the panel and its notifications: an icon, its words in a tooltip
    /// and for screen readers.
    static func closeButton(_ tooltip: String, name: String, clicked: @escaping () -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name("window-close-symbolic", GTK_ICON_SIZE_MENU)!
        button.addClass("close")
        gtk_button_set_relief(button.cast(GtkButton.self), GTK_RELIEF_NONE)
        gtk_widget_set_tooltip_text(button, tooltip)
        Self.name(button, name)
        GtkSignals.connect(button.raw, "clicked", clicked)
        return button
    }
}
