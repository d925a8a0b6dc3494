import CGtk
import ChimeControl
import ChimeCore

/// The Notification Center panel: a column the screen's height against one edge, with the
/// Focus controls on top, a search field, and the center's notifications (or the Activity
/// view) below. A layer-shell surface on wlroots compositors, a dock window on X11. Its window
/// exists only while it is open: closing it frees what it drew.
public final class CenterPanel {
    /// What the person does in the panel, for the presenter to send to chimed.
    public struct Actions {
        /// id, action key ("default" for a click on the notification), activation token.
        public var invoke: (UInt32, String, String) -> Void
        /// Off the panel: deleted from the center (an open one is dismissed first).
        public var delete: (UInt32) -> Void
        public var reply: (UInt32, String) -> Void
        public var read: ([UInt32]) -> Void
        /// A group's Clear: the notifications it shows go from the center.
        public var clear: ([UInt32]) -> Void
        /// A Focus on: its name and FocusOn's options ("for-seconds", "until").
        public var focusOn: (String, [(String, BusValue)]) -> Void
        public var focusOff: () -> Void
        public var setMuted: (Bool) -> Void
        /// The person closed the panel (Escape, the close button).
        public var close: () -> Void
        /// The search text changed ("" for none).
        public var search: (String) -> Void
        /// The Activity view was opened: its figures are wanted.
        public var wantActivity: () -> Void
        /// The play button of a notification's audio attachment (id, its index).
        public var playAttachment: (UInt32, Int) -> Void
        /// A player card's button: the player's bus name and PlayPause, Next or Previous.
        public var playerControl: (String, String) -> Void = { _, _ in }

        public init(invoke: @escaping (UInt32, String, String) -> Void, delete: @escaping (UInt32) -> Void,
                    reply: @escaping (UInt32, String) -> Void, read: @escaping ([UInt32]) -> Void,
                    clear: @escaping ([UInt32]) -> Void, focusOn: @escaping (String, [(String, BusValue)]) -> Void,
                    focusOff: @escaping () -> Void, setMuted: @escaping (Bool) -> Void, close: @escaping () -> Void,
                    search: @escaping (String) -> Void, wantActivity: @escaping () -> Void,
                    playAttachment: @escaping (UInt32, Int) -> Void) {
            (self.invoke, self.delete, self.reply, self.read, self.clear) = (invoke, delete, reply, read, clear)
            (self.focusOn, self.focusOff, self.setMuted, self.close, self.search, self.wantActivity) =
                (focusOn, focusOff, setMuted, close, search, wantActivity)
            self.playAttachment = playAttachment
        }
    }

    /// What the header says: the Focus modes, the active one and its end, mute.
    public struct Status: Equatable, Sendable {
        public struct Mode: Equatable, Sendable {
            public var name: String
            public var displayName: String
            public init(name: String, displayName: String) { (self.name, self.displayName) = (name, displayName) }
        }

        public var modes: [Mode] = []
        public var active = ""
        /// When the active Focus ends (unix ms), 0 for no end.
        public var until: Int64 = 0
        public var muted = false
        /// What is wrong in the config (each line left out of it).
        public var configProblems: [String] = []
        public init() {}
    }

    private var settings: PanelSettings
    private let actions: Actions
    private let layerShell: Bool
    private var window: UnsafeMutablePointer<GtkWidget>?
    private var header: PanelHeader?
    private var list: CenterList?
    private var activity: ActivityView?
    private var stack: UnsafeMutablePointer<GtkWidget>?
    private var searchEntry: UnsafeMutablePointer<GtkWidget>?
    private var content = CenterContent(records: [])
    private var status = Status()
    private var report: ActivityReport?
    private var players: [MediaPlayer] = []
    private var playerCards: PlayerCards?

    public init(settings: PanelSettings, actions: Actions) {
        self.settings = settings
        self.actions = actions
        layerShell = gtk_layer_is_supported() != 0
    }

    public var isOpen: Bool { window != nil }

    public func update(_ settings: PanelSettings) {
        guard settings != self.settings else { return }
        self.settings = settings
        if isOpen {
            close()
            open()
        }
    }

    /// Draws the panel (if it is not open) and gives it the keyboard.
    public func open() {
        guard window == nil else { return }
        let window = makeWindow()
        self.window = window
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let header = PanelHeader(actions: actions) { [weak self] showActivity in self?.showActivity(showActivity) }
        self.header = header
        gtk_box_pack_start(column.cast(GtkBox.self), header.widget, 0, 0, 0)
        let search = gtk_search_entry_new()!
        search.addClass("center-search")
        gtk_entry_set_placeholder_text(search.cast(GtkEntry.self), tr("Search notifications"))
        Accessible.name(search, tr("Search notifications"))
        GtkSignals.connect(search.raw, "search-changed") { [actions] in
            actions.search(String(cString: gtk_entry_get_text(search.cast(GtkEntry.self))))
        }
        searchEntry = search
        gtk_box_pack_start(column.cast(GtkBox.self), search, 0, 0, 0)
        let cards = PlayerCards(control: actions.playerControl)
        playerCards = cards
        gtk_box_pack_start(column.cast(GtkBox.self), cards.widget, 0, 0, 0)
        let stack = gtk_stack_new()!
        let list = CenterList(actions: actions)
        self.list = list
        gtk_stack_add_named(stack.cast(GtkStack.self), list.widget, "notifications")
        let activity = ActivityView()
        self.activity = activity
        gtk_stack_add_named(stack.cast(GtkStack.self), activity.widget, "activity")
        self.stack = stack
        gtk_box_pack_start(column.cast(GtkBox.self), stack, 1, 1, 0)
        gtk_container_add(window.cast(GtkContainer.self), column)
        GtkSignals.connectEvent(window.raw, "key-press-event") { [weak self] event in
            self?.key(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventKey.self).pointee) ?? false
        }
        GtkSignals.connectEvent(window.raw, "delete-event") { [actions] _ in
            actions.close()
            return true
        }
        header.show(status)
        header.show(content)
        list.focusNames = Dictionary(status.modes.map { ($0.name, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        list.show(content)
        if let report { activity.show(report) }
        gtk_widget_show_all(window)
        cards.show(players)
        gtk_stack_set_visible_child_name(stack.cast(GtkStack.self), "notifications")
        gtk_window_present(window.cast(GtkWindow.self))
        list.focusFirst()
    }

    /// Takes the panel off the screen and frees what it drew.
    public func close() {
        guard let window else { return }
        (header, list, activity, stack, searchEntry, playerCards) = (nil, nil, nil, nil, nil, nil)
        self.window = nil
        gtk_widget_destroy(window)
    }

    /// The center's notifications as they are now (searched, when a search is typed).
    public func show(_ content: CenterContent) {
        self.content = content
        header?.show(content)
        list?.show(content)
    }

    public func show(_ status: Status) {
        guard status != self.status else { return }
        self.status = status
        header?.show(status)
        let names = Dictionary(status.modes.map { ($0.name, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        if let list, names != list.focusNames {
            list.focusNames = names
            list.show(content)
        }
    }

    /// The media players on the bus, a card each.
    public func show(_ players: [MediaPlayer]) {
        self.players = players
        playerCards?.show(players)
    }

    public func show(_ report: ActivityReport) {
        self.report = report
        activity?.show(report)
    }

    private func showActivity(_ on: Bool) {
        guard let stack else { return }
        gtk_stack_set_visible_child_name(stack.cast(GtkStack.self), on ? "activity" : "notifications")
        if on { actions.wantActivity() }
    }

    /// Escape closes (or first empties the search), `/` searches, Delete takes the focused
    /// notification off; arrows, Tab and Enter are GTK's own.
    private func key(_ event: GdkEventKey) -> Bool {
        let inEntry = window.flatMap { gtk_window_get_focus($0.cast(GtkWindow.self)) }.map { focused in
            g_type_check_instance_is_a(UnsafeMutableRawPointer(focused).assumingMemoryBound(to: GTypeInstance.self), gtk_entry_get_type()) != 0
        } ?? false
        switch Int32(event.keyval) {
        case GDK_KEY_Escape:
            if inEntry, let searchEntry, gtk_entry_get_text_length(searchEntry.cast(GtkEntry.self)) > 0,
               gtk_window_get_focus(window!.cast(GtkWindow.self)) == searchEntry {
                gtk_entry_set_text(searchEntry.cast(GtkEntry.self), "")
            } else {
                actions.close()
            }
            return true
        case GDK_KEY_slash where !inEntry:
            if let searchEntry { gtk_widget_grab_focus(searchEntry) }
            return true
        case GDK_KEY_Down where inEntry:
            // GTK's own move stops at a first row that takes no focus (a section's title).
            list?.focusTop()
            return true
        case GDK_KEY_Delete, GDK_KEY_KP_Delete:
            guard !inEntry, let window, let id = list?.notification(containing: gtk_window_get_focus(window.cast(GtkWindow.self))) else { return false }
            list?.willDelete(id)
            actions.delete(id)
            return true
        default:
            return false
        }
    }

    /// A column against the configured edge, the height of the monitor's work area.
    private func makeWindow() -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let gtkWindow = window.cast(GtkWindow.self)
        gtk_window_set_title(gtkWindow, "chime-center")
        gtk_window_set_decorated(gtkWindow, 0)
        window.addClass("chime-center")
        let (monitor, area) = OverlayWindow.monitor(named: settings.output, layerShell: layerShell)
        let width = Int32(min(settings.width, Int(max(area.width, 240))))
        if layerShell {
            gtk_widget_set_size_request(window, width, -1)
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_TOP)
            gtk_layer_set_namespace(gtkWindow, "chime-center")
            gtk_layer_set_monitor(gtkWindow, monitor)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 1)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_BOTTOM, 1)
            gtk_layer_set_anchor(gtkWindow, settings.edge == .right ? GTK_LAYER_SHELL_EDGE_RIGHT : GTK_LAYER_SHELL_EDGE_LEFT, 1)
            // The panel is driven from the keyboard: it holds it while open.
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE)
        } else {
            gtk_window_set_type_hint(gtkWindow, GDK_WINDOW_TYPE_HINT_DOCK)
            gtk_window_set_keep_above(gtkWindow, 1)
            gtk_window_set_skip_taskbar_hint(gtkWindow, 1)
            gtk_window_set_skip_pager_hint(gtkWindow, 1)
            gtk_widget_set_size_request(window, width, area.height)
            gtk_window_set_default_size(gtkWindow, width, area.height)
            let x = settings.edge == .right ? area.x + area.width - width : area.x
            gtk_window_move(gtkWindow, x, area.y)
        }
        return window
    }
}
