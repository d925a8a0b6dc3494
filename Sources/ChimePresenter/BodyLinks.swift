import CGtk
import ChimeCore
import ChimeGLib

/// The links of a banner's body, each a button of its own under the text: a click on the body
/// stays the default action however much of it a link covers, and only a click meant for a
/// link opens one. chimed kept only the links `LinkScheme` allows; the check is made again here,
/// where the link is handed to the desktop's handler.
enum BodyLinks {
    static let maximumShown = 3

    static func row(_ body: String, id: UInt32, callbacks: PopupPresenter.Callbacks,
                    log: @escaping (String) -> Void) -> UnsafeMutablePointer<GtkWidget>? {
        let links = PangoMarkup.links(in: body).filter { LinkScheme.isOpenable($0.uri) }.prefix(maximumShown)
        guard !links.isEmpty else { return nil }
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        row.addClass("links")
        for link in links {
            // Where it goes, not what the app says it is: "example.org ↗", "ada@example.org ↗".
            let button = gtk_button_new_with_label(LinkScheme.destination(link.uri) + " ↗")!
            button.addClass("link")
            gtk_button_set_relief(button.cast(GtkButton.self), GTK_RELIEF_NONE)
            gtk_widget_set_tooltip_text(button, link.uri)
            if let label = gtk_bin_get_child(button.cast(GtkBin.self)) {
                gtk_label_set_ellipsize(label.cast(GtkLabel.self), PANGO_ELLIPSIZE_END)
            }
            let uri = link.uri
            GtkSignals.connect(button.raw, "clicked") {
                if DesktopApp.open(uri, log: log) { callbacks.openedLink(id) }
            }
            gtk_box_pack_start(row.cast(GtkBox.self), button, 0, 0, 0)
        }
        return row
    }
}
