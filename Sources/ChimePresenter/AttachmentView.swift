import CGtk
import ChimeBanners
import ChimeCore

/// The files a notification carries, drawn: a picture's or a movie's thumbnail, which a click
/// opens with the desktop's handler, and an audio file's play button. A banner shows the first
/// and says how many more there are; the panel shows them all.
enum AttachmentView {
    struct Callbacks {
        /// Play the audio file at this index (chimed plays it through chime-sound).
        var play: (Int) -> Void
        /// A file was opened: the notification counts as read.
        var opened: () -> Void
        var log: (String) -> Void
    }

    /// nil when there is nothing to show. `shown`: how many are drawn; `width` x `height`: the
    /// most a thumbnail takes.
    static func row(_ attachments: [Attachment], shown: Int, width: Int, height: Int,
                    callbacks: Callbacks) -> UnsafeMutablePointer<GtkWidget>? {
        guard !attachments.isEmpty else { return nil }
        let row = gtk_flow_box_new()!
        row.addClass("attachments")
        gtk_flow_box_set_selection_mode(row.cast(GtkFlowBox.self), GTK_SELECTION_NONE)
        gtk_flow_box_set_column_spacing(row.cast(GtkFlowBox.self), 6)
        gtk_flow_box_set_row_spacing(row.cast(GtkFlowBox.self), 6)
        gtk_flow_box_set_homogeneous(row.cast(GtkFlowBox.self), 0)
        for (index, attachment) in attachments.enumerated().prefix(shown) {
            let tile = tile(attachment, index: index, width: width, height: height, callbacks: callbacks)
            gtk_container_add(row.cast(GtkContainer.self), tile)
            // The flow box's own child takes no focus: the button inside does.
            if let child = gtk_widget_get_parent(tile) { gtk_widget_set_can_focus(child, 0) }
        }
        if attachments.count > shown {
            let more = gtk_label_new("+\(attachments.count - shown)")!
            more.addClass("attachments-more")
            Accessible.name(more, tr("{value} more attachments", ["value": attachments.count - shown]))
            gtk_container_add(row.cast(GtkContainer.self), more)
        }
        return row
    }

    private static func tile(_ attachment: Attachment, index: Int, width: Int, height: Int,
                             callbacks: Callbacks) -> UnsafeMutablePointer<GtkWidget> {
        guard access(attachment.path, R_OK) == 0 else {
            let gone = gtk_label_new(tr("{name} (deleted)", ["name": attachment.name]))!
            gone.addClass("attachment-gone")
            return gone
        }
        let button = gtk_button_new()!
        button.addClass("attachment")
        button.addClass(attachment.kind.rawValue)
        gtk_button_set_relief(button.cast(GtkButton.self), GTK_RELIEF_NONE)
        gtk_widget_set_tooltip_text(button, attachment.name)
        let path = attachment.path
        switch attachment.kind {
        case .image:
            let picture: UnsafeMutablePointer<GtkWidget>
            switch Pixbufs.thumbnail(file: path, clip: attachment.clip, within: width, height) {
            case .success(let pixbuf):
                picture = gtk_image_new_from_pixbuf(pixbuf)!
                g_object_unref(UnsafeMutableRawPointer(pixbuf))
            case .failure(let problem):
                callbacks.log("\(problem); shown as an icon")
                picture = gtk_image_new_from_icon_name("image-x-generic", GTK_ICON_SIZE_DIALOG)!
            }
            gtk_container_add(button.cast(GtkContainer.self), picture)
            Accessible.name(button, tr("Open {name}", ["name": attachment.name]))
            opens(button, path, callbacks)
        case .movie:
            let picture = gtk_image_new_from_icon_name("video-x-generic", GTK_ICON_SIZE_DIALOG)!
            gtk_widget_set_size_request(picture, Int32(min(width, height * 16 / 9)), Int32(height))
            gtk_container_add(button.cast(GtkContainer.self), picture)
            // Held until the thumbnail comes, which may be after the banner went.
            g_object_ref(UnsafeMutableRawPointer(picture))
            MovieThumbnails.shared.thumbnail(of: attachment, log: callbacks.log) { thumbnail in
                defer { g_object_unref(UnsafeMutableRawPointer(picture)) }
                guard let thumbnail, case .success(let pixbuf) = Pixbufs.from(file: thumbnail, within: width, height) else { return }
                gtk_image_set_from_pixbuf(picture.cast(GtkImage.self), pixbuf)
                g_object_unref(UnsafeMutableRawPointer(pixbuf))
            }
            Accessible.name(button, tr("Open {name}", ["name": attachment.name]))
            opens(button, path, callbacks)
        case .audio:
            let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
            gtk_box_pack_start(box.cast(GtkBox.self), gtk_image_new_from_icon_name("media-playback-start-symbolic", GTK_ICON_SIZE_BUTTON), 0, 0, 0)
            let name = gtk_label_new(attachment.name)!
            gtk_label_set_ellipsize(name.cast(GtkLabel.self), PANGO_ELLIPSIZE_MIDDLE)
            gtk_label_set_max_width_chars(name.cast(GtkLabel.self), 24)
            gtk_box_pack_start(box.cast(GtkBox.self), name, 0, 0, 0)
            gtk_container_add(button.cast(GtkContainer.self), box)
            Accessible.name(button, tr("Play {name}", ["name": attachment.name]))
            // What libcanberra plays is played; the desktop's player takes the rest.
            if AttachmentFiles.playable(attachment) {
                GtkSignals.connect(button.raw, "clicked") { callbacks.play(index) }
            } else {
                opens(button, path, callbacks)
            }
        }
        return button
    }

    private static func opens(_ button: UnsafeMutablePointer<GtkWidget>, _ path: String, _ callbacks: Callbacks) {
        GtkSignals.connect(button.raw, "clicked") {
            guard let uri = MovieThumbnails.uri(path) else { return }
            if DesktopApp.open(uri, log: callbacks.log) { callbacks.opened() }
        }
    }
}
