import CGtk
import ChimeBanners
import ChimeCore

/// The panel's media players (design section 25): a card for each, with its art, what it plays
/// and previous, play/pause and next, made again when a player changes what it plays or leaves.
/// Hidden while no player is on the bus.
final class PlayerCards {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let control: (String, String) -> Void
    private var shown: [MediaPlayer]?
    static let artSize = 48

    /// `control`: a player's bus name and what to ask of it (PlayPause, Next, Previous).
    init(control: @escaping (String, String) -> Void) {
        self.control = control
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        widget.addClass("player-cards")
        gtk_widget_set_no_show_all(widget, 1)
    }

    func show(_ players: [MediaPlayer]) {
        guard players != shown else { return }
        shown = players
        if let children = gtk_container_get_children(widget.cast(GtkContainer.self)) {
            var link: UnsafeMutablePointer<GList>? = children
            while let node = link {
                gtk_widget_destroy(node.pointee.data.assumingMemoryBound(to: GtkWidget.self))
                link = node.pointee.next
            }
            g_list_free(children)
        }
        for player in players {
            let card = card(player)
            gtk_box_pack_start(widget.cast(GtkBox.self), card, 0, 0, 0)
            gtk_widget_show_all(card)
        }
        // The panel's show_all passes over the box (no_show_all): it shows only with a player.
        if players.isEmpty { gtk_widget_hide(widget) } else { gtk_widget_show(widget) }
    }

    private func card(_ player: MediaPlayer) -> UnsafeMutablePointer<GtkWidget> {
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        row.addClass("player-card")
        if let path = player.art, case .success(let pixbuf) = Pixbufs.from(file: path, size: Self.artSize) {
            let picture = gtk_image_new_from_pixbuf(pixbuf)!
            g_object_unref(UnsafeMutableRawPointer(pixbuf))
            picture.addClass("player-art")
            gtk_box_pack_start(row.cast(GtkBox.self), picture, 0, 0, 0)
        }
        let texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        let title = player.title ?? player.displayName
        gtk_box_pack_start(texts.cast(GtkBox.self), Banner.label(title, markup: false, style: "summary", lines: 1), 0, 0, 0)
        let artist = player.artists.joined(separator: ", ")
        let byline = artist.isEmpty ? player.displayName : artist
        gtk_box_pack_start(texts.cast(GtkBox.self), Banner.label(byline, markup: false, style: "body", lines: 1), 0, 0, 0)
        gtk_box_pack_start(row.cast(GtkBox.self), texts, 1, 1, 0)
        let playing = player.status == "Playing"
        let buttons: [(icon: String, name: String, action: String, enabled: Bool)] = [
            ("media-skip-backward-symbolic", tr("Previous"), "Previous", player.canGoPrevious),
            (playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic", playing ? tr("Pause") : tr("Play"),
             "PlayPause", playing ? player.canPause : player.canPlay),
            ("media-skip-forward-symbolic", tr("Next"), "Next", player.canGoNext),
        ]
        for button in buttons {
            let widget = gtk_button_new_from_icon_name(button.icon, GTK_ICON_SIZE_BUTTON)!
            widget.addClass("player-button")
            gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
            gtk_widget_set_sensitive(widget, button.enabled ? 1 : 0)
            Accessible.name(widget, "\(button.name): \(player.displayName)")
            gtk_widget_set_tooltip_text(widget, button.name)
            let (busName, action, control) = (player.busName, button.action, control)
            GtkSignals.connect(widget.raw, "clicked") { control(busName, action) }
            gtk_box_pack_start(row.cast(GtkBox.self), widget, 0, 0, 0)
        }
        return row
    }
}
