import CGtk
import ChimeControl
import ChimeBanners
import ChimeCore
import ChimeGLib

/// One banner: a GTK window showing a notification. What the user does to it goes to the
/// presenter's callbacks with its id; where it stands on the screen is the presenter's business.
final class Banner {
    let id: UInt32
    let window: UnsafeMutablePointer<GtkWidget>
    /// The width it is drawn at: the configured one when it was made.
    let width: Int
    /// For a banner that stays: when it came, and the label that says how long ago.
    private var age: (since: Int64, label: UnsafeMutablePointer<GtkWidget>)?

    init(_ content: BannerContent, settings: PopupSettings, layerShell: Bool, callbacks: PopupPresenter.Callbacks,
         log: @escaping (String) -> Void) {
        let id = content.id
        self.id = id
        width = settings.width
        // Only a banner with a reply field takes the keyboard.
        window = OverlayWindow.make(layerShell: layerShell, keyboard: content.replyPlaceholder != nil)
        gtk_window_set_title(window.cast(GtkWindow.self), "chime-banner-\(id)")
        gtk_widget_set_size_request(window, Int32(settings.width), -1)
        window.addClass("chime-banner")
        window.addClass(content.level.rawValue)
        // An event box takes the clicks on the banner itself; buttons inside take their own.
        let events = gtk_event_box_new()!
        gtk_widget_add_events(events, Int32(GDK_BUTTON_PRESS_MASK.rawValue | GDK_ENTER_NOTIFY_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue))
        gtk_container_add(window.cast(GtkContainer.self), events)
        let window = window
        // On Wayland the banner takes the keyboard only when asked (its reply field, its menu);
        // on X11 a click focuses it.
        let keyboard: ((Bool) -> Void)? = layerShell ? { take in OverlayWindow.takeKeyboard(window, take) } : nil
        var ageLabel: UnsafeMutablePointer<GtkWidget>?
        gtk_container_add(events.cast(GtkContainer.self), Self.body(content, settings: settings, callbacks: callbacks, log: log,
                                                                     keyboard: keyboard, age: &ageLabel))
        if let since = content.staysSince, let ageLabel { age = (since, ageLabel) }
        refreshAge()
        GtkSignals.connectEvent(events.raw, "button-press-event") { event in
            let button = UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventButton.self).pointee.button
            switch settings.click(Int(button)) {
            case .defaultAction where content.hasDefaultAction:
                callbacks.invoke(id, Action.defaultKey, ActivationToken.forCurrentEvent(content) ?? "")
            case .defaultAction, .dismiss: callbacks.dismiss(id)
            case .dismissAll: callbacks.dismissAll()
            case .menu where !content.menu.isEmpty: ActionMenu.popUp(content.menu, of: content, at: .pointer(on: window), keyboard: keyboard, callbacks: callbacks)
            case .menu, .none: break
            }
            return true
        }
        GtkSignals.connectEvent(events.raw, "enter-notify-event") { _ in callbacks.hover(id, true); return false }
        GtkSignals.connectEvent(events.raw, "leave-notify-event") { event in
            // Moving onto a button inside is not leaving the banner.
            let crossing = UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventCrossing.self).pointee
            if crossing.detail != GDK_NOTIFY_INFERIOR { callbacks.hover(id, false) }
            return false
        }
        gtk_widget_show_all(events)
    }

    deinit { gtk_widget_destroy(window) }

    /// Says again how long ago a banner that stays came; false for one that does not.
    @discardableResult
    func refreshAge() -> Bool {
        guard let age else { return false }
        let now = Int64(g_get_real_time()) / 1_000
        gtk_label_set_text(age.label.cast(GtkLabel.self), RelativeAge.text(since: age.since, now: now))
        return true
    }

    /// The height GTK wants at its width. Asked without a width, GTK answers for the narrowest
    /// the banner could be, where its text wraps a word to a line: hundreds of pixels too tall,
    /// which spread a stack of banners down and off the screen.
    var height: Int {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_get_preferred_height_for_width(window, Int32(width), &minimum, &natural)
        return Int(max(minimum, natural))
    }

    func move(_ placement: OverlayWindow.Placement, monitor: OpaquePointer?, layerShell: Bool) {
        OverlayWindow.place(window, placement, monitor: monitor, layerShell: layerShell)
        // Shown once placed, so it never flashes where GTK would put it.
        gtk_widget_show(window)
    }

    // MARK: Content

    /// `keyboard`: the reply field was clicked into (true), or is done with (false).
    /// `age`: the label that says how long ago a banner that stays came.
    private static func body(_ content: BannerContent, settings: PopupSettings, callbacks: PopupPresenter.Callbacks,
                             log: @escaping (String) -> Void, keyboard: ((Bool) -> Void)?,
                             age: inout UnsafeMutablePointer<GtkWidget>?) -> UnsafeMutablePointer<GtkWidget> {
        let id = content.id
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        column.addClass("content")
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        // The texts' column: the banner's width less its padding (12 a side), and the icon's.
        var textWidth = settings.width - 2 * 12
        if let icon = icon(content, size: settings.iconSize, log: log) {
            gtk_widget_set_valign(icon, GTK_ALIGN_START)
            gtk_box_pack_start(row.cast(GtkBox.self), icon, 0, 0, 0)
            textWidth -= settings.iconSize + 10
        }
        let texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        let header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        gtk_box_pack_start(header.cast(GtkBox.self), label(content.header, markup: false, style: "app-name", lines: 1), 1, 1, 0)
        if content.staysSince != nil {
            let label = gtk_label_new(nil)!
            label.addClass("age")
            gtk_box_pack_start(header.cast(GtkBox.self), label, 0, 0, 0)
            age = label
        }
        // Time-sensitive and critical say so in words, not in colour alone.
        if let tag = Self.levelTag(content.level) {
            let tagLabel = gtk_label_new(tag)!
            tagLabel.addClass("level-tag")
            gtk_box_pack_start(header.cast(GtkBox.self), tagLabel, 0, 0, 0)
        }
        let close = Accessible.closeButton(tr("Dismiss"), name: tr("Dismiss {summary}", ["summary": content.summary])) { callbacks.dismiss(id) }
        gtk_box_pack_end(header.cast(GtkBox.self), close, 0, 0, 0)
        gtk_box_pack_start(texts.cast(GtkBox.self), header, 0, 0, 0)
        gtk_box_pack_start(texts.cast(GtkBox.self), label(content.summary, markup: false, style: "summary", lines: 2), 0, 0, 0)
        if !content.body.isEmpty {
            gtk_box_pack_start(texts.cast(GtkBox.self), label(PangoMarkup.from(content.body), markup: true, style: "body", lines: 6), 0, 0, 0)
            if let picture = bodyImage(content, width: max(16, textWidth), log: log) {
                gtk_widget_set_halign(picture, GTK_ALIGN_START)
                picture.addClass("body-image")
                gtk_box_pack_start(texts.cast(GtkBox.self), picture, 0, 0, 0)
            }
            if let links = BodyLinks.row(content.body, id: id, callbacks: callbacks, log: log) {
                gtk_box_pack_start(texts.cast(GtkBox.self), links, 0, 0, 0)
            }
        }
        gtk_box_pack_start(row.cast(GtkBox.self), texts, 1, 1, 0)
        gtk_box_pack_start(column.cast(GtkBox.self), row, 0, 0, 0)
        let files = AttachmentView.Callbacks(play: { callbacks.playAttachment(id, $0) }, opened: { callbacks.openedLink(id) }, log: log)
        if let attachments = AttachmentView.row(content.attachments, shown: 1, width: settings.width - 2 * 12, height: 120, callbacks: files) {
            gtk_box_pack_start(column.cast(GtkBox.self), attachments, 0, 0, 0)
        }
        if let progress = content.progress {
            let bar = gtk_progress_bar_new()!
            gtk_progress_bar_set_fraction(bar.cast(GtkProgressBar.self), Double(progress) / 100)
            gtk_box_pack_start(column.cast(GtkBox.self), bar, 0, 0, 0)
        }
        if let placeholder = content.replyPlaceholder {
            let (field, entry) = ReplyField.make(content, placeholder: placeholder) { text in
                if !text.isEmpty { callbacks.reply(id, text) }
                keyboard?(false)
            }
            // The keyboard comes with a click into the field and goes with Return or Escape.
            GtkSignals.connectEvent(entry.raw, "button-press-event") { _ in keyboard?(true); return false }
            GtkSignals.connectEvent(entry.raw, "key-press-event") { event in
                if UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventKey.self).pointee.keyval == UInt32(GDK_KEY_Escape) {
                    keyboard?(false)
                }
                return false
            }
            gtk_box_pack_start(column.cast(GtkBox.self), field, 0, 0, 0)
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
                GtkSignals.connect(button.raw, "clicked") { callbacks.invoke(id, action.key, ActivationToken.forCurrentEvent(content) ?? "") }
                gtk_box_pack_start(buttons.cast(GtkBox.self), button, 1, 1, 0)
            }
            let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
            gtk_box_pack_start(row.cast(GtkBox.self), buttons, 1, 1, 0)
            // Past four buttons the rest stay reachable: a "more" button at the end offers them.
            let rest = content.moreActions
            if !rest.isEmpty {
                let more = gtk_button_new_from_icon_name("view-more-symbolic", GTK_ICON_SIZE_BUTTON)!
                gtk_widget_set_tooltip_text(more, tr("More actions"))
                more.addClass("more-actions")
                GtkSignals.connect(more.raw, "clicked") { ActionMenu.popUp(rest, of: content, at: .below(more), keyboard: keyboard, callbacks: callbacks) }
                gtk_box_pack_end(row.cast(GtkBox.self), more, 0, 0, 0)
            }
            gtk_box_pack_start(column.cast(GtkBox.self), row, 0, 0, 0)
        }
        return column
    }

    static func levelTag(_ level: InterruptionLevel) -> String? {
        switch level {
        case .timeSensitive: tr("Time-Sensitive")
        case .critical: tr("Critical")
        case .passive, .active: nil
        }
    }

    /// A wrapping label; with `lines`, at most that many lines, the last ending in "…".
    static func label(_ text: String, markup: Bool, style: String, lines: Int? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(nil)!
        let text = lines.map { LineLimit.oneParagraph(text, lines: $0) } ?? text
        if markup { gtk_label_set_markup(label.cast(GtkLabel.self), text) } else { gtk_label_set_text(label.cast(GtkLabel.self), text) }
        // Text that reads right to left (Hebrew, Arabic) stands against the right side, as
        // pango lays it out on its own in chime-banners; a GtkLabel keeps the widget's side.
        // (The label's text without its markup; asking for its layout this early would fix it
        // before the style's font applies.)
        let rightToLeft = gtk_label_get_text(label.cast(GtkLabel.self)).map { pango_find_base_dir($0, -1) == PANGO_DIRECTION_RTL } ?? false
        gtk_label_set_xalign(label.cast(GtkLabel.self), rightToLeft ? 1 : 0)
        if rightToLeft { gtk_label_set_justify(label.cast(GtkLabel.self), GTK_JUSTIFY_RIGHT) }
        gtk_label_set_line_wrap(label.cast(GtkLabel.self), 1)
        gtk_label_set_line_wrap_mode(label.cast(GtkLabel.self), PANGO_WRAP_WORD_CHAR)
        // A small natural width, so the label wraps to the banner's width instead of widening it.
        gtk_label_set_max_width_chars(label.cast(GtkLabel.self), 1)
        if let lines {
            gtk_label_set_lines(label.cast(GtkLabel.self), Int32(lines))
            gtk_label_set_ellipsize(label.cast(GtkLabel.self), PANGO_ELLIPSIZE_END)
        }
        label.addClass(style)
        return label
    }

    /// The image-data, else the icon file or themed name, else the icon of the app's desktop
    /// file, scaled to the icon size. A file that cannot be shown is said in the log, and the
    /// banner goes without it.
    private static func icon(_ content: BannerContent, size: Int, log: (String) -> Void) -> UnsafeMutablePointer<GtkWidget>? {
        if let image = content.image, let pixbuf = Pixbufs.from(image, size: size) {
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            return gtk_image_new_from_pixbuf(pixbuf)
        }
        guard let icon = content.icon, !icon.isEmpty else { return content.desktopEntry.flatMap { desktopIcon($0, size: size) } }
        if icon.hasPrefix("/") { return picture(Pixbufs.from(file: icon, size: size), of: content, missing: "it", log: log) }
        return themedIcon(icon, size: size)
    }

    /// The body's first image (`<img src>`: a file path chimed checked, or an icon name), drawn
    /// under the text at most `width` wide and 120 pixels high, never enlarged; its alt text stays
    /// in the text. One that cannot be shown is said in the log.
    private static func bodyImage(_ content: BannerContent, width: Int, log: (String) -> Void) -> UnsafeMutablePointer<GtkWidget>? {
        guard let source = PangoMarkup.imageSources(in: content.body).first else { return nil }
        guard source.hasPrefix("/") else { return themedIcon(source, size: 48) }
        return picture(Pixbufs.from(file: source, within: width, 120), of: content, missing: "its body image", log: log)
    }

    /// An image file as loaded, or nil with why in the log.
    private static func picture(_ loaded: Result<OpaquePointer, HintProblem>, of content: BannerContent, missing what: String,
                                log: (String) -> Void) -> UnsafeMutablePointer<GtkWidget>? {
        switch loaded {
        case .success(let pixbuf):
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            return gtk_image_new_from_pixbuf(pixbuf)
        case .failure(let problem):
            log("\(problem); notification \(content.id)'s banner goes without \(what)")
            return nil
        }
    }

    static func themedIcon(_ name: String, size: Int) -> UnsafeMutablePointer<GtkWidget> {
        let image = gtk_image_new_from_icon_name(name, GTK_ICON_SIZE_DIALOG)!
        gtk_image_set_pixel_size(image.cast(GtkImage.self), Int32(size))
        return image
    }

    /// The Icon= of the desktop file `entry` names (found as GIO finds applications, in
    /// XDG_DATA_HOME and XDG_DATA_DIRS), as GNOME Shell and Plasma show an app that sends none.
    static func desktopIcon(_ entry: String, size: Int) -> UnsafeMutablePointer<GtkWidget>? {
        guard let info = DesktopApp.info(entry) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        guard let icon = g_app_info_get_icon(info) else { return nil }
        let image = gtk_image_new_from_gicon(icon, GTK_ICON_SIZE_DIALOG)!
        gtk_image_set_pixel_size(image.cast(GtkImage.self), Int32(size))
        return image
    }
}
