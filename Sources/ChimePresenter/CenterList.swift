import CGtk
import ChimeControl
import ChimeBanners
import ChimeCore
import ChimeGLib

/// The panel's list: what a Focus holds and what waits for the summary, each in a section of its
/// own, then a group per app with its mark-read and clear buttons, three notifications each
/// until "N more" opens the rest. Arrows move between rows, Enter invokes a notification's
/// default action, Tab reaches each row's buttons.
final class CenterList {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let listBox: UnsafeMutablePointer<GtkWidget>
    private let actions: CenterPanel.Actions
    /// What each row stands for, by the row's pointer.
    private var rows: [UnsafeMutableRawPointer: Row] = [:]
    private var order: [UnsafeMutablePointer<GtkWidget>] = []
    /// Groups and sections opened past their first notifications.
    private var expanded: Set<String> = []
    /// Where the focus goes after the next redraw, when the row it was on is gone.
    private var focusIndexAfterDelete: Int?
    static let collapsedCount = 3
    /// A notification's picture (a sender's avatar), beside its texts.
    static let imageSize = 40

    enum Row: Equatable {
        case item(CenterContent.Item)
        case header(String)
        case more(String)

        var key: String {
            switch self {
            case .item(let item): "item \(item.id)"
            case .header(let key): "header \(key)"
            case .more(let key): "more \(key)"
            }
        }
    }

    init(actions: CenterPanel.Actions) {
        self.actions = actions
        widget = gtk_scrolled_window_new(nil, nil)!
        // EXTERNAL: what a notification needs is never the panel's width (`[panel] width` is).
        gtk_scrolled_window_set_policy(widget.cast(GtkScrolledWindow.self), GTK_POLICY_EXTERNAL, GTK_POLICY_AUTOMATIC)
        listBox = gtk_list_box_new()!
        listBox.addClass("center-list")
        gtk_list_box_set_selection_mode(listBox.cast(GtkListBox.self), GTK_SELECTION_NONE)
        gtk_list_box_set_activate_on_single_click(listBox.cast(GtkListBox.self), 1)
        gtk_container_add(widget.cast(GtkContainer.self), listBox)
        GtkSignals.connectPointer(listBox.raw, "row-activated") { [weak self] row in
            self?.activated(row)
            return false
        }
    }

    /// The Focus modes' names as people read them ("Do Not Disturb" for dnd), for the held sections.
    var focusNames: [String: String] = [:]
    /// What is drawn, to draw again when a group opens.
    private var content = CenterContent(records: [])

    /// Draws `content` anew, keeping the focus on the row it was on.
    func show(_ content: CenterContent) {
        self.content = content
        let focusedKey = focusedRow().flatMap { rows[$0.raw]?.key }
        let focusedIndex = focusedRow().flatMap { row in order.firstIndex(of: row) }
        for row in order { gtk_widget_destroy(row) }
        (rows, order) = ([:], [])
        if content.groups.isEmpty, content.held.isEmpty, content.waiting.isEmpty, content.summaryCard == nil {
            let empty = gtk_label_new(tr("No notifications"))!
            empty.addClass("center-empty")
            add(.header("empty"), empty, focusable: false)
        }
        if let card = content.summaryCard {
            section("summary card", tr("Your Scheduled Summary"), [card], card: true)
        }
        for held in content.held {
            section("held \(held.focus)", tr("Held by {focus}: {n}", ["focus": focusNames[held.focus] ?? held.focus, "n": held.items.count]), held.items)
        }
        if !content.waiting.isEmpty {
            section("summary", tr("Waiting for the summary: {n}", ["n": content.waiting.count]), content.waiting)
        }
        for group in content.groups { add(group) }
        gtk_widget_show_all(listBox)
        let target = focusedKey.flatMap { key in order.first { rows[$0.raw]?.key == key } }
            ?? (focusIndexAfterDelete ?? focusedIndex).flatMap { index in
                order.isEmpty ? nil : order[min(index, order.count - 1)]
            }
        focusIndexAfterDelete = nil
        if let target, focusedKey != nil || focusedIndex != nil { gtk_widget_grab_focus(target) }
    }

    /// The first row that takes the focus: a notification, or a group's header.
    func focusTop() {
        if let first = order.first(where: { gtk_widget_get_can_focus($0) != 0 }) { gtk_widget_grab_focus(first) }
    }

    func focusFirst() {
        if let first = order.first(where: { if case .item = rows[$0.raw] { true } else { false } }) ?? order.first {
            gtk_widget_grab_focus(first)
        }
    }

    /// The notification whose row holds `widget` (the focused one), if any.
    func notification(containing widget: UnsafeMutablePointer<GtkWidget>?) -> UInt32? {
        var current = widget
        while let widget = current {
            if case .item(let item)? = rows[widget.raw] { return item.id }
            current = gtk_widget_get_parent(widget)
        }
        return nil
    }

    /// The row of `id` is about to go: the focus stays where it was in the list.
    func willDelete(_ id: UInt32) {
        focusIndexAfterDelete = order.firstIndex { if case .item(let item)? = rows[$0.raw] { item.id == id } else { false } }
    }

    private func focusedRow() -> UnsafeMutablePointer<GtkWidget>? {
        guard let toplevel = gtk_widget_get_toplevel(widget), gtk_widget_is_toplevel(toplevel) != 0,
              var current = gtk_window_get_focus(toplevel.cast(GtkWindow.self)) else { return nil }
        while rows[current.raw] == nil {
            guard let parent = gtk_widget_get_parent(current) else { return nil }
            current = parent
        }
        return current
    }

    // MARK: Rows

    /// `card`: the summary's, set apart with a style of its own.
    private func section(_ key: String, _ title: String, _ items: [CenterContent.Item], card: Bool = false) {
        let label = gtk_label_new(title)!
        gtk_label_set_xalign(label.cast(GtkLabel.self), 0)
        label.addClass(card ? "center-summary" : "center-section")
        add(.header(key), label, focusable: false)
        addItems(items, key: key)
    }

    private func add(_ group: CenterContent.Group) {
        let header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        header.addClass("center-group")
        if let icon = group.items.lazy.compactMap({ Self.icon($0) }).first { gtk_box_pack_start(header.cast(GtkBox.self), icon, 0, 0, 0) }
        let unread = group.unread
        let name = gtk_label_new(group.name + (unread > 0 ? " · \(unread) unread" : ""))!
        name.addClass("group-name")
        gtk_label_set_xalign(name.cast(GtkLabel.self), 0)
        gtk_label_set_ellipsize(name.cast(GtkLabel.self), PANGO_ELLIPSIZE_END)
        gtk_box_pack_start(header.cast(GtkBox.self), name, 1, 1, 0)
        // The buttons act on what the group shows (under a search, the matches), and say how many.
        let actions = actions
        let app = group.app
        if unread > 0 {
            let ids = group.items.filter(\.unread).map(\.id)
            let read = gtk_button_new_with_label(tr("Mark {unread} read", ["unread": unread]))!
            Accessible.name(read, tr("Mark {unread} of {name}'s notifications read", ["unread": unread, "name": group.name]))
            GtkSignals.connect(read.raw, "clicked") { actions.read(ids) }
            gtk_box_pack_start(header.cast(GtkBox.self), read, 0, 0, 0)
        }
        let ids = group.items.map(\.id)
        let clear = gtk_button_new_with_label(tr("Clear {count}", ["count": ids.count]))!
        Accessible.name(clear, tr("Clear {count} of {name}'s notifications", ["count": ids.count, "name": group.name]))
        GtkSignals.connect(clear.raw, "clicked") { actions.clear(ids) }
        gtk_box_pack_start(header.cast(GtkBox.self), clear, 0, 0, 0)
        add(.header("app \(app)"), header, focusable: true)
        addItems(group.items, key: "app \(app)")
    }

    private func addItems(_ items: [CenterContent.Item], key: String) {
        let shown = expanded.contains(key) ? items[...] : items.prefix(Self.collapsedCount)
        for item in shown { add(.item(item), Self.body(item, actions: actions), focusable: true) }
        if shown.count < items.count {
            let more = gtk_label_new(tr("{value} more", ["value": items.count - shown.count]))!
            more.addClass("center-more")
            add(.more(key), more, focusable: true)
        }
    }

    private func add(_ row: Row, _ child: UnsafeMutablePointer<GtkWidget>, focusable: Bool) {
        let listRow = gtk_list_box_row_new()!
        gtk_container_add(listRow.cast(GtkContainer.self), child)
        gtk_widget_set_can_focus(listRow, focusable ? 1 : 0)
        switch row {
        case .item(let item):
            listRow.addClass("center-item")
            if item.unread { listRow.addClass("unread") }
            listRow.addClass(item.level.rawValue)
            Accessible.name(listRow, item.unread ? tr("{app}: {summary}, unread", ["app": item.appName, "summary": item.summary])
                                             : "\(item.appName): \(item.summary)")
        case .header:
            gtk_list_box_row_set_activatable(listRow.cast(GtkListBoxRow.self), 0)
        case .more:
            listRow.addClass("center-more-row")
        }
        gtk_container_add(listBox.cast(GtkContainer.self), listRow)
        rows[listRow.raw] = row
        order.append(listRow)
    }

    private func activated(_ row: UnsafeMutableRawPointer) {
        switch rows[row] {
        case .item(let item)?:
            let token = ActivationToken.forCurrentEvent(desktopEntry: item.desktopEntry, appName: item.appName) ?? ""
            // Without a default action, a click still says it was seen.
            if item.hasDefaultAction { actions.invoke(item.id, Action.defaultKey, token) } else { actions.read([item.id]) }
        case .more(let key)?:
            expanded.insert(key)
            show(content)
        case .header?, nil:
            break
        }
    }

    /// One notification: when it came, its summary and body, its buttons and reply field, and a
    /// button that takes it off.
    private static func body(_ item: CenterContent.Item, actions: CenterPanel.Actions) -> UnsafeMutablePointer<GtkWidget> {
        let id = item.id
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        column.addClass("content")
        let top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let now = Int64(g_get_real_time()) / 1_000
        var heading = RelativeAge.text(since: item.created, now: now)
        if let tag = Banner.levelTag(item.level) { heading += " · " + tag }
        if item.repeatCount > 1 { heading += " · \(item.repeatCount)x" }
        let when = gtk_label_new(heading)!
        when.addClass("age")
        gtk_label_set_xalign(when.cast(GtkLabel.self), 0)
        gtk_box_pack_start(top.cast(GtkBox.self), when, 1, 1, 0)
        let remove = Accessible.closeButton(tr("Dismiss"), name: tr("Dismiss {summary}", ["summary": item.summary])) { actions.delete(id) }
        gtk_box_pack_end(top.cast(GtkBox.self), remove, 0, 0, 0)
        gtk_box_pack_start(column.cast(GtkBox.self), top, 0, 0, 0)
        let texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_box_pack_start(texts.cast(GtkBox.self), Banner.label(item.summary, markup: false, style: "summary", lines: 2), 0, 0, 0)
        if !item.body.isEmpty {
            gtk_box_pack_start(texts.cast(GtkBox.self), Banner.label(PangoMarkup.from(item.body), markup: true, style: "body", lines: 4), 0, 0, 0)
        }
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        if let path = item.image, case .success(let pixbuf) = Pixbufs.from(file: path, size: Self.imageSize) {
            let picture = gtk_image_new_from_pixbuf(pixbuf)!
            g_object_unref(UnsafeMutableRawPointer(pixbuf))
            gtk_widget_set_valign(picture, GTK_ALIGN_START)
            picture.addClass("item-image")
            gtk_box_pack_start(row.cast(GtkBox.self), picture, 0, 0, 0)
        }
        gtk_box_pack_start(row.cast(GtkBox.self), texts, 1, 1, 0)
        gtk_box_pack_start(column.cast(GtkBox.self), row, 0, 0, 0)
        let files = AttachmentView.Callbacks(play: { actions.playAttachment(id, $0) }, opened: { actions.read([id]) },
                                             log: { Log.warning("presenter: " + $0) })
        if let attachments = AttachmentView.row(item.attachments, shown: item.attachments.count, width: 160, height: 90, callbacks: files) {
            gtk_box_pack_start(column.cast(GtkBox.self), attachments, 0, 0, 0)
        }
        if !item.buttons.isEmpty {
            // Buttons that do not fit in the panel's width go on the next line: a row that cannot
            // wrap would widen the panel past its width.
            let buttons = gtk_flow_box_new()!
            gtk_flow_box_set_selection_mode(buttons.cast(GtkFlowBox.self), GTK_SELECTION_NONE)
            gtk_flow_box_set_homogeneous(buttons.cast(GtkFlowBox.self), 1)
            gtk_flow_box_set_column_spacing(buttons.cast(GtkFlowBox.self), 6)
            gtk_flow_box_set_row_spacing(buttons.cast(GtkFlowBox.self), 6)
            gtk_flow_box_set_max_children_per_line(buttons.cast(GtkFlowBox.self), UInt32(BannerContent.maximumButtons))
            for action in item.buttons.prefix(BannerContent.maximumButtons) {
                let button = gtk_button_new_with_label(action.label)!
                GtkSignals.connect(button.raw, "clicked") {
                    actions.invoke(id, action.key, ActivationToken.forCurrentEvent(desktopEntry: item.desktopEntry, appName: item.appName) ?? "")
                }
                gtk_container_add(buttons.cast(GtkContainer.self), button)
                // The flow box's own child takes no focus: the button inside does.
                if let child = gtk_widget_get_parent(button) { gtk_widget_set_can_focus(child, 0) }
            }
            gtk_box_pack_start(column.cast(GtkBox.self), buttons, 0, 0, 0)
        }
        if let reason = item.shownReason {
            let why = gtk_label_new(reason)!
            why.addClass("reason")
            gtk_label_set_xalign(why.cast(GtkLabel.self), 0)
            gtk_label_set_line_wrap(why.cast(GtkLabel.self), 1)
            gtk_box_pack_start(column.cast(GtkBox.self), why, 0, 0, 0)
        }
        if !item.reasons.isEmpty { gtk_widget_set_tooltip_text(column, item.reasons.joined(separator: "\n")) }
        for offer in item.offers {
            let line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
            line.addClass("offer")
            let text = gtk_label_new(offer.text)!
            gtk_label_set_xalign(text.cast(GtkLabel.self), 0)
            gtk_label_set_line_wrap(text.cast(GtkLabel.self), 1)
            gtk_box_pack_start(line.cast(GtkBox.self), text, 1, 1, 0)
            for action in offer.actions {
                let button = gtk_button_new_with_label(action.label)!
                GtkSignals.connect(button.raw, "clicked") { actions.invoke(id, action.key, "") }
                gtk_box_pack_start(line.cast(GtkBox.self), button, 0, 0, 0)
            }
            gtk_box_pack_start(column.cast(GtkBox.self), line, 0, 0, 0)
        }
        if item.offersReply {
            let field = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
            let entry = gtk_entry_new()!
            gtk_entry_set_placeholder_text(entry.cast(GtkEntry.self), tr("Reply…"))
            Accessible.name(entry, tr("Reply to {summary}", ["summary": item.summary]))
            let send = {
                let text = String(cString: gtk_entry_get_text(entry.cast(GtkEntry.self)))
                if !text.isEmpty { actions.reply(id, text) }
            }
            GtkSignals.connect(entry.raw, "activate", send)
            gtk_box_pack_start(field.cast(GtkBox.self), entry, 1, 1, 0)
            let button = gtk_button_new_with_label(tr("Send"))!
            GtkSignals.connect(button.raw, "clicked", send)
            gtk_box_pack_start(field.cast(GtkBox.self), button, 0, 0, 0)
            gtk_box_pack_start(column.cast(GtkBox.self), field, 0, 0, 0)
        }
        return column
    }

    /// The app's icon for its group: its desktop file's, else the icon name it sends.
    private static func icon(_ item: CenterContent.Item) -> UnsafeMutablePointer<GtkWidget>? {
        if let entry = item.desktopEntry, let icon = Banner.desktopIcon(entry, size: 20) { return icon }
        if let name = item.icon, !name.isEmpty, !name.hasPrefix("/") { return Banner.themedIcon(name, size: 20) }
        return nil
    }
}
