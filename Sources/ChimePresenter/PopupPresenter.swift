import CGtk
import ChimeControl
import ChimeCore
import ChimeGLib

/// Banners on the screen (chimed(1)'s banners): one GTK window per presented notification,
/// stacked in a corner of one monitor, newest nearest the edge, with a "+N more" line past the
/// visible count. Runs on chimed's main loop; GTK's events arrive through the same loop.
public final class PopupPresenter {
    public struct Callbacks {
        /// id, action key, and the activation token made for the click ("" when none).
        public var invoke: (UInt32, String, String) -> Void
        public var dismiss: (UInt32) -> Void
        public var reply: (UInt32, String) -> Void
        /// The pointer entered (true) or left (false) a banner: expiry pauses meanwhile.
        public var hover: (UInt32, Bool) -> Void
        /// A link in the body was opened: the notification counts as read.
        public var openedLink: (UInt32) -> Void
        /// A click that dismisses every notification (`[popups] … = dismiss-all`).
        public var dismissAll: () -> Void
        /// The play button of a notification's audio attachment (id, its index).
        public var playAttachment: (UInt32, Int) -> Void
        /// A click on "+N more": the panel shows them all.
        public var openCenter: () -> Void

        public init(invoke: @escaping (UInt32, String, String) -> Void, dismiss: @escaping (UInt32) -> Void,
                    reply: @escaping (UInt32, String) -> Void, hover: @escaping (UInt32, Bool) -> Void,
                    openedLink: @escaping (UInt32) -> Void = { _ in }, dismissAll: @escaping () -> Void = {},
                    playAttachment: @escaping (UInt32, Int) -> Void = { _, _ in }, openCenter: @escaping () -> Void = {}) {
            self.invoke = invoke
            self.dismiss = dismiss
            self.reply = reply
            self.hover = hover
            self.openedLink = openedLink
            self.dismissAll = dismissAll
            self.playAttachment = playAttachment
            self.openCenter = openCenter
        }
    }

    private var settings: PopupSettings
    private let callbacks: Callbacks
    private let layerShell: Bool
    /// Everything presented, newest first; windows exist only for the visible ones, so a
    /// burst of a thousand costs a thousand small values, not a thousand windows.
    private var queue = BannerQueue()
    private var contents: [BannerContent] { queue.contents }
    private var windows: [UInt32: Banner] = [:]
    private var more: UnsafeMutablePointer<GtkWidget>?
    /// Says the age of the banners that stay again, while there is one.
    private var ageTimer: UInt32?
    /// What the banners have to say (an image they could not show), in chimed's log.
    private let log: (String) -> Void

    /// GTK on the display DISPLAY or WAYLAND_DISPLAY names; false when it cannot be opened.
    public static func openDisplay() -> Bool { gtk_init_check(nil, nil) != 0 }

    /// Banners on the display (`openDisplay` and `ShippedStyle.apply` first); nil when they are
    /// turned off or there is none.
    public init?(settings: PopupSettings, environment: [String: String], callbacks: Callbacks,
                 log: @escaping (String) -> Void) {
        guard settings.enabled, hasDisplay(environment), Self.openDisplay() else { return nil }
        self.settings = settings
        self.callbacks = callbacks
        self.log = log
        layerShell = gtk_layer_is_supported() != 0
    }

    public func update(_ settings: PopupSettings) {
        // A banner is drawn at its width and icon size: when those change, each is drawn anew.
        if (settings.width, settings.iconSize) != (self.settings.width, self.settings.iconSize) { windows = [:] }
        if settings.width != self.settings.width, let more {
            gtk_widget_destroy(more)
            self.more = nil
        }
        self.settings = settings
        arrange()
    }

    /// Shows a notification, or redraws it in place when its id is already shown.
    public func show(_ content: BannerContent) {
        if let stale = queue.show(content) { windows[stale] = nil }  // drawn again with the new content
    }

    /// Shows a notification where `previous` was shown (its thread's banner), or as a new one.
    public func show(_ content: BannerContent, replacing previous: UInt32) {
        for stale in queue.show(content, replacing: previous) { windows[stale] = nil }
    }

    /// Whether any banner is on screen (or waits in "+N more").
    public var isShowing: Bool { !queue.isEmpty }

    public func hide(_ id: UInt32) {
        guard queue.hide(id) else { return }
        windows[id] = nil
    }

    /// While the panel is open it shows every notification itself: banners wait off the screen
    /// (their windows freed), and come back as they were when it closes.
    public var suspended = false {
        didSet { if suspended != oldValue { arrange() } }
    }

    public func arrange() {
        if suspended {
            windows = [:]
            if let more { gtk_widget_hide(more) }
            return
        }
        let visible = contents.prefix(max(1, settings.maximumVisible))
        let visibleIDs = Set(visible.map(\.id))
        for id in windows.keys where !visibleIDs.contains(id) { windows[id] = nil }
        let banners = visible.map { content in windows[content.id] ?? makeBanner(content) }
        let (monitor, area) = self.monitor()
        var stacked = banners.map { ($0.id, $0.height) }
        stacked += contents.dropFirst(visible.count).map { ($0.id, 0) }
        let stack = BannerStack(banners: stacked, monitor: (Int(area.width), Int(area.height)), settings: settings)
        for (banner, place) in zip(banners, stack.placements) {
            let placement = OverlayWindow.Placement(x: place.x, y: place.y, width: banner.width, height: banner.height,
                                                    area: area, anchor: settings.anchor)
            banner.move(placement, monitor: monitor, layerShell: layerShell)
        }
        if let moreAt = stack.moreAt {
            let line = more ?? makeMore()
            gtk_label_set_text(gtk_bin_get_child(line.cast(GtkBin.self)).cast(GtkLabel.self), tr("+{hidden} more", ["hidden": stack.hidden]))
            let placement = OverlayWindow.Placement(x: moreAt.x, y: moreAt.y, width: settings.width, height: BannerStack.moreHeight,
                                                    area: area, anchor: settings.anchor)
            OverlayWindow.place(line, placement, monitor: monitor, layerShell: layerShell)
            gtk_widget_show_all(line)
        } else if let more {
            gtk_widget_hide(more)
        }
    }

    private func makeBanner(_ content: BannerContent) -> Banner {
        let banner = Banner(content, settings: settings, layerShell: layerShell, callbacks: callbacks, log: log)
        windows[content.id] = banner
        if content.staysSince != nil, ageTimer == nil {
            // Each banner that stays says its age again every half minute, while there is one.
            ageTimer = GLibSources.timeout(milliseconds: 30_000) { [weak self] in
                guard let self else { return false }
                let any = windows.values.map { $0.refreshAge() }.contains(true)
                if !any { ageTimer = nil }
                return any
            }
        }
        return banner
    }

    private func makeMore() -> UnsafeMutablePointer<GtkWidget> {
        let window = OverlayWindow.make(layerShell: layerShell, keyboard: false)
        gtk_window_set_title(window.cast(GtkWindow.self), "chime-more")
        gtk_widget_set_size_request(window, Int32(settings.width), Int32(BannerStack.moreHeight))
        window.addClass("chime-more")
        gtk_container_add(window.cast(GtkContainer.self), gtk_label_new(""))
        gtk_widget_add_events(window, Int32(GDK_BUTTON_PRESS_MASK.rawValue))
        GtkSignals.connectEvent(window.raw, "button-press-event") { [callbacks] event in
            if UnsafeMutableRawPointer(event).assumingMemoryBound(to: GdkEventButton.self).pointee.button == 1 { callbacks.openCenter() }
            return true
        }
        more = window
        return window
    }

    /// The monitor the banners go to, and the work area their places are worked out in: the
    /// configured one (by connector name) when it is there; else on X11 the primary monitor, or
    /// the first; else, on Wayland, where no output is primary, none: the compositor chooses, and
    /// puts each banner on the output the user is working on (sway: the focused one).
    private func monitor() -> (OpaquePointer?, GdkRectangle) {
        // Without one, the work area only gives the stack's arithmetic a size: on Wayland the
        // banners are placed by their distances to the anchored edges, which do not depend on it.
        OverlayWindow.monitor(named: settings.output, layerShell: layerShell)
    }
}
