import CGtk
import ChimeControl
import ChimeCore

/// The panel's header: its title, the Activity switch and the close button; the active Focus and
/// when it ends; a button for each Focus mode (Do Not Disturb with how long), and mute; Mark all
/// read and Clear all, as swaync has them.
final class PanelHeader {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let actions: CenterPanel.Actions
    private let focusLine: UnsafeMutablePointer<GtkWidget>
    /// Says the config has problems, only while it has.
    private let problemLine: UnsafeMutablePointer<GtkWidget>
    private let modes: UnsafeMutablePointer<GtkWidget>
    private let mute: UnsafeMutablePointer<GtkWidget>
    private let markAllRead: UnsafeMutablePointer<GtkWidget>
    private let clearAll: UnsafeMutablePointer<GtkWidget>
    /// What the list's groups show now (under a search, the matches): what the two act on; not
    /// what a Focus holds or the summary waits for.
    private var shown: (all: [UInt32], unread: [UInt32]) = ([], [])
    private var status: CenterPanel.Status?
    /// While `show` sets the mute button, its "toggled" is not the person's.
    private var settingMute = false

    /// `activity`: the Activity switch turned on (true) or off.
    init(actions: CenterPanel.Actions, activity: @escaping (Bool) -> Void) {
        self.actions = actions
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        widget.addClass("center-header")
        let top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let title = gtk_label_new(tr("Notifications"))!
        title.addClass("center-title")
        gtk_label_set_xalign(title.cast(GtkLabel.self), 0)
        gtk_box_pack_start(top.cast(GtkBox.self), title, 1, 1, 0)
        let switchButton = gtk_toggle_button_new_with_label(tr("Activity"))!
        switchButton.addClass("activity-switch")
        GtkSignals.connect(switchButton.raw, "toggled") {
            activity(gtk_toggle_button_get_active(switchButton.cast(GtkToggleButton.self)) != 0)
        }
        gtk_box_pack_start(top.cast(GtkBox.self), switchButton, 0, 0, 0)
        let close = Accessible.closeButton(tr("Close"), name: tr("Close the panel")) { actions.close() }
        gtk_box_pack_start(top.cast(GtkBox.self), close, 0, 0, 0)
        gtk_box_pack_start(widget.cast(GtkBox.self), top, 0, 0, 0)
        problemLine = gtk_label_new("")!
        problemLine.addClass("config-problem")
        gtk_label_set_xalign(problemLine.cast(GtkLabel.self), 0)
        gtk_label_set_line_wrap(problemLine.cast(GtkLabel.self), 1)
        gtk_widget_set_no_show_all(problemLine, 1)
        gtk_box_pack_start(widget.cast(GtkBox.self), problemLine, 0, 0, 0)
        focusLine = gtk_label_new("")!
        focusLine.addClass("focus-line")
        gtk_label_set_xalign(focusLine.cast(GtkLabel.self), 0)
        gtk_box_pack_start(widget.cast(GtkBox.self), focusLine, 0, 0, 0)
        modes = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(modes.cast(GtkFlowBox.self), GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(modes.cast(GtkFlowBox.self), 3)
        gtk_flow_box_set_homogeneous(modes.cast(GtkFlowBox.self), 1)
        gtk_box_pack_start(widget.cast(GtkBox.self), modes, 0, 0, 0)
        let everything = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        everything.addClass("center-all")
        gtk_box_pack_start(everything.cast(GtkBox.self), gtk_label_new("")!, 1, 1, 0)
        markAllRead = gtk_button_new_with_label(tr("Mark all read"))!
        clearAll = gtk_button_new_with_label(tr("Clear all"))!
        gtk_box_pack_start(everything.cast(GtkBox.self), markAllRead, 0, 0, 0)
        gtk_box_pack_start(everything.cast(GtkBox.self), clearAll, 0, 0, 0)
        gtk_box_pack_start(widget.cast(GtkBox.self), everything, 0, 0, 0)
        mute = gtk_toggle_button_new_with_label(tr("Mute"))!
        g_object_ref_sink(UnsafeMutableRawPointer(mute))
        GtkSignals.connect(markAllRead.raw, "clicked") { [unowned self] in actions.read(shown.unread) }
        GtkSignals.connect(clearAll.raw, "clicked") { [unowned self] in actions.clear(shown.all) }
        GtkSignals.connect(mute.raw, "toggled") { [unowned self] in
            if !settingMute { actions.setMuted(gtk_toggle_button_get_active(mute.cast(GtkToggleButton.self)) != 0) }
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(mute)) }

    /// Sets what Mark all read and Clear all act on: every notification the groups show.
    func show(_ content: CenterContent) {
        let items = content.groups.flatMap(\.items)
        shown = (items.map(\.id), items.filter(\.unread).map(\.id))
        gtk_widget_set_sensitive(markAllRead, shown.unread.isEmpty ? 0 : 1)
        gtk_widget_set_sensitive(clearAll, shown.all.isEmpty ? 0 : 1)
        Accessible.name(markAllRead, tr("Mark all {count} unread notifications read", ["count": shown.unread.count]))
        Accessible.name(clearAll, tr("Clear all {count} notifications", ["count": shown.all.count]))
    }

    func show(_ status: CenterPanel.Status) {
        guard status != self.status else { return }
        self.status = status
        let active = status.modes.first { $0.name == status.active }?.displayName ?? status.active
        var line = status.active.isEmpty ? tr("Focus: off")
            : status.until > 0 ? tr("Focus: {name} on until {time}", ["name": active, "time": Self.clock(status.until)])
            : tr("Focus: {name} on", ["name": active])
        if status.muted { line += " · " + tr("sounds muted") }
        gtk_label_set_text(focusLine.cast(GtkLabel.self), line)
        let problems = status.configProblems.count
        gtk_label_set_text(problemLine.cast(GtkLabel.self),
                           trn("The config has {n} problem, left out: see chimectl status",
                               "The config has {n} problems, left out: see chimectl status", problems))
        gtk_widget_set_tooltip_text(problemLine, status.configProblems.joined(separator: "\n"))
        gtk_widget_set_visible(problemLine, problems > 0 ? 1 : 0)
        settingMute = true
        gtk_toggle_button_set_active(mute.cast(GtkToggleButton.self), status.muted ? 1 : 0)
        settingMute = false
        Accessible.name(mute, status.muted ? tr("Sounds muted; unmute") : tr("Mute sounds"))
        // The Focus buttons are made again only when the modes or the active one change, so the
        // keyboard's place among them stays.
        let names = status.modes.map(\.name) + [status.active]
        guard names != shownModes else { return }
        shownModes = names
        if let parent = gtk_widget_get_parent(mute) { gtk_container_remove(parent.cast(GtkContainer.self), mute) }
        gtk_container_foreach(modes.cast(GtkContainer.self), { child, _ in gtk_widget_destroy(child) }, nil)
        // Sharing and fullscreen follow the screen, not a click: they are not offered.
        for mode in status.modes where mode.name != "sharing" && mode.name != "fullscreen" {
            add(modeButton(mode.name, mode.displayName, on: mode.name == status.active))
        }
        add(mute)
        gtk_widget_show_all(modes)
    }

    private var shownModes: [String]?

    /// A flow box's child wrapper takes the keyboard focus of its own unless told not to: Tab
    /// would stop twice at each button.
    private func add(_ button: UnsafeMutablePointer<GtkWidget>) {
        gtk_container_add(modes.cast(GtkContainer.self), button)
        if let wrapper = gtk_widget_get_parent(button) { gtk_widget_set_can_focus(wrapper, 0) }
    }

    /// A Focus's button: on, it turns the Focus off; off, it offers how long (Do Not Disturb) or
    /// turns it on until turned off (a Focus with its own schedule).
    private func modeButton(_ name: String, _ displayName: String, on: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let actions = actions
        let button: UnsafeMutablePointer<GtkWidget>
        if on {
            button = gtk_button_new_with_label(displayName)!
            button.addClass("focus-on")
            Accessible.name(button, tr("{displayName} is on; turn it off", ["displayName": displayName]))
            GtkSignals.connect(button.raw, "clicked") { actions.focusOff() }
        } else {
            button = gtk_menu_button_new()!
            gtk_button_set_label(button.cast(GtkButton.self), displayName)
            Accessible.name(button, tr("Turn {displayName} on", ["displayName": displayName]))
            let menu = gtk_menu_new()!
            menu.addClass("focus-durations")
            for (label, options) in Self.durations(now: Int64(g_get_real_time()) / 1_000) {
                let item = gtk_menu_item_new_with_label(label)!
                GtkSignals.connect(item.raw, "activate") { actions.focusOn(name, options) }
                gtk_menu_shell_append(menu.cast(GtkMenuShell.self), item)
            }
            gtk_widget_show_all(menu)
            gtk_menu_button_set_popup(button.cast(GtkMenuButton.self), menu)
        }
        button.addClass("focus-mode")
        return button
    }

    /// How long a Focus turned on from the panel lasts: an hour, until this evening (before
    /// six), until tomorrow morning, or until turned off.
    static func durations(now: Int64) -> [(String, [(String, BusValue)])] {
        var choices: [(String, [(String, BusValue)])] = [(tr("For 1 hour"), [("for-seconds", .uint32(3_600))])]
        if let hour = localHour(now), hour < 17 { choices.append((tr("Until this evening"), [("until", .string("18:00"))])) }
        choices.append((tr("Until tomorrow morning"), [("until", .string("08:00"))]))
        choices.append((tr("Until I turn it off"), []))
        return choices
    }

    private static func localHour(_ unixMilliseconds: Int64) -> Int? {
        guard let time = g_date_time_new_from_unix_local(gint64(unixMilliseconds / 1_000)) else { return nil }
        defer { g_date_time_unref(time) }
        return Int(g_date_time_get_hour(time))
    }

    /// "17:30" in local time.
    static func clock(_ unixMilliseconds: Int64) -> String {
        guard let time = g_date_time_new_from_unix_local(gint64(unixMilliseconds / 1_000)),
              let text = g_date_time_format(time, "%H:%M") else { return "" }
        defer {
            g_free(text)
            g_date_time_unref(time)
        }
        return String(cString: text)
    }
}
