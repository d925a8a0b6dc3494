import CGtk
import ChimeControl

/// A notification's reply field: the entry with its placeholder and the send button
/// (`x-kde-reply-submit-button-text`, else "Send"), in a GTK banner and over a banner
/// chime-banners draws alike.
enum ReplyField {
    /// The row and its entry. `send` gets the text typed (perhaps empty) on Return or the button.
    static func make(_ content: BannerContent, placeholder: String,
                     send: @escaping (String) -> Void) -> (row: UnsafeMutablePointer<GtkWidget>, entry: UnsafeMutablePointer<GtkWidget>) {
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(entry.cast(GtkEntry.self), placeholder)
        let sent = { send(String(cString: gtk_entry_get_text(entry.cast(GtkEntry.self)))) }
        GtkSignals.connect(entry.raw, "activate", sent)
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_box_pack_start(row.cast(GtkBox.self), entry, 1, 1, 0)
        let button = gtk_button_new_with_label(content.replySubmitText)!
        button.addClass("reply-send")
        GtkSignals.connect(button.raw, "clicked", sent)
        gtk_box_pack_start(row.cast(GtkBox.self), button, 0, 0, 0)
        return (row, entry)
    }
}
