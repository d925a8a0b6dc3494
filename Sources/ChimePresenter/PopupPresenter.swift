import CGtk
import ChimeControl
import ChimeCore
import ChimeGLib

/// Banners on the screen (the README's popups): one GTK window per presented notification,
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

        public init(invoke: @escaping (UInt32, String, String) -> Void, dismiss: @escaping (UInt32) -> Void,
                    reply: @escaping (UInt32, String) -> Void, hover: @escaping (UInt32, Bool) -> Void,
                    openedLink: @escaping (UInt32) -> Void = { _ in }, dismissAll: @escaping () -> Void = {},
                    playAttachment: @escaping (UInt32, Int) -> Void = { _, _ in }) {
            self.invoke = invoke
            self.dismiss = dismiss
            self.reply = reply
            self.hover = hover
            self.openedLink = openedLink
            self.dismissAll = dismissAll
            self.playAttachment = playAttachment
        }
    }

    private var settings: PopupSettings
    private let callbacks: Callbacks
    private let layerShell: Bool
    /// Everything presented, newest first; windows exist only for the visible ones, so a
    /// burst of a thousand costs a thousand small values, not a thousand windows.
    private var contents: [BannerContent] = []
    private var windows: [UInt32: Banner] = [:]
    private var more: UnsafeMutablePointer<GtkWidget>?
    /// Says the age of the banners that stay again, while there is one.
    private var ageTimer: UInt32?
    /// What the banners have to say (an image they could not show), in chimed's log.
    private let log: (String) -> Void

    /// GTK on the display DISPLAY or WAYLAND_DISPLAY names; false when it cannot be opened.
    public static func openDisplay() -> Bool { gtk_init_check(nil, nil) != 0 }

    /// Banners on the display (`openDisplay` first); nil when they are turned off or there is
    /// none. `css`: the user's style sheet, applied over the shipped one.
    public init?(settings: PopupSettings, css: String?, environment: [String: String], callbacks: Callbacks,
                 log: @escaping (String) -> Void) {
        guard settings.enabled, hasDisplay(environment), Self.openDisplay() else { return nil }
        self.settings = settings
        self.callbacks = callbacks
        self.log = log
        layerShell = gtk_layer_is_supported() != 0
        let shipped = gtk_css_provider_new()
        gtk_css_provider_load_from_data(shipped, Self.defaultStyle, -1, nil)
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(shipped), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        if let css {
            let user = gtk_css_provider_new()
            var error: UnsafeMutablePointer<GError>?
            if gtk_css_provider_load_from_path(user, css, &error) == 0 {
                log("\(css): \(error.map { String(cString: $0.pointee.message) } ?? "cannot be read"); using the shipped style")
                g_error_free(error)
            } else {
                gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(user), UInt32(GTK_STYLE_PROVIDER_PRIORITY_USER))
            }
        }
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
        if let index = contents.firstIndex(where: { $0.id == content.id }) {
            contents[index] = content
            windows[content.id] = nil  // drawn again with the new content
        } else if let explained = content.explains, let index = contents.firstIndex(where: { $0.id == explained }) {
            contents.insert(content, at: index + 1)
        } else {
            contents.insert(content, at: 0)
        }
        arrange()
    }

    /// Shows a notification where `previous` was shown (its thread's banner), or as a new one.
    public func show(_ content: BannerContent, replacing previous: UInt32) {
        guard contents.contains(where: { $0.id == previous }) else { return show(content) }
        contents.removeAll { $0.id == content.id }
        if let index = contents.firstIndex(where: { $0.id == previous }) { contents[index] = content }
        windows[previous] = nil
        arrange()
    }

    /// Whether any banner is on screen (or waits in "+N more").
    public var isShowing: Bool { !contents.isEmpty }

    public func hide(_ id: UInt32) {
        guard let index = contents.firstIndex(where: { $0.id == id }) else { return }
        contents.remove(at: index)
        windows[id] = nil
        arrange()
    }

    /// While the panel is open it shows every notification itself: banners wait off the screen
    /// (their windows freed), and come back as they were when it closes.
    public var suspended = false {
        didSet { if suspended != oldValue { arrange() } }
    }

    /// Draws the visible banners, places them, and counts the rest in "+N more".
    private func arrange() {
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
            gtk_label_set_text(gtk_bin_get_child(line.cast(GtkBin.self)).cast(GtkLabel.self), "+\(stack.hidden) more")
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

    /// The shipped look: dark, rounded, with time-sensitive and critical set apart.
    static let defaultStyle = """
        window.chime-banner, window.chime-more { background-color: #23252b; color: #eceff4; border: 1px solid #3b3f4a; border-radius: 10px; }
        window.chime-banner .content { padding: 12px; }
        window.chime-banner .app-name { font-size: 0.85em; color: #a3a9b7; }
        window.chime-banner .summary { font-weight: bold; font-size: 1.1em; }
        window.chime-banner .body { font-size: 0.95em; }
        window.chime-banner .age { font-size: 0.85em; color: #a3a9b7; margin-right: 6px; }
        window.chime-banner .level-tag { font-size: 0.8em; font-weight: bold; margin-right: 6px; }
        window.chime-banner.time-sensitive .level-tag { color: #f0b429; }
        window.chime-banner.critical .level-tag { color: #ff8a8a; }
        window.chime-banner entry { background: #1b1d22; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; }
        window.chime-banner entry:focus { border-color: #6d9eeb; }
        window.chime-banner progressbar trough { background: #353945; border: none; min-height: 6px; }
        window.chime-banner progressbar progress { background: #6d9eeb; border: none; min-height: 6px; }
        window.chime-banner .body-image { margin-top: 4px; }
        window.chime-banner button { padding: 4px 10px; background: #353945; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; text-shadow: none; -gtk-icon-shadow: none; }
        window.chime-banner button:hover { background: #414655; }
        window.chime-banner button.close { padding: 0; min-height: 16px; min-width: 16px; background: none; border: none; color: #a3a9b7; }
        window.chime-banner button.destructive-action { background: #b83a3a; color: #ffffff; }
        window.chime-banner.passive { opacity: 0.92; }
        window.chime-banner.time-sensitive { background-color: #2c2819; border: 2px solid #e5a50a; }
        window.chime-banner.critical { background-color: #5c1a1a; border: 2px solid #ff5c5c; }
        window.chime-more label { color: #a3a9b7; padding: 4px; }
        window.chime-center { background-color: #1b1d22; color: #eceff4; }
        window.chime-center .center-header { padding: 12px; background-color: #23252b; border-bottom: 1px solid #3b3f4a; }
        window.chime-center .center-title { font-weight: bold; font-size: 1.25em; }
        window.chime-center .focus-line { color: #a3a9b7; }
        window.chime-center button { padding: 4px 10px; background: #353945; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; text-shadow: none; -gtk-icon-shadow: none; }
        window.chime-center button:hover, window.chime-center button:focus { background: #414655; border-color: #6d9eeb; }
        window.chime-center button:checked, window.chime-center button.focus-on { background: #2f4f7f; border-color: #6d9eeb; }
        window.chime-center button.close { padding: 0; min-height: 16px; min-width: 16px; background: none; border: none; color: #a3a9b7; }
        window.chime-center entry { margin: 8px 12px; background: #23252b; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; }
        window.chime-center entry:focus { border-color: #6d9eeb; }
        window.chime-center list { background: transparent; padding: 0 12px 12px 12px; }
        window.chime-center row { padding: 2px 0; background: transparent; color: #eceff4; }
        window.chime-center row:focus { outline: none; background: #2a2d35; }
        window.chime-center row.center-item { margin: 3px 0; background-color: #23252b; border: 1px solid #3b3f4a; border-radius: 8px; }
        window.chime-center row.center-item:focus { border-color: #6d9eeb; background-color: #2a2d35; }
        window.chime-center row.center-item.unread { border-left: 4px solid #6d9eeb; }
        window.chime-center row.center-item.time-sensitive { border-color: #e5a50a; }
        window.chime-center row.center-item.critical { border-color: #ff5c5c; }
        window.chime-center .content { padding: 8px 10px; }
        window.chime-center .center-group { padding-top: 10px; }
        window.chime-center .group-name { font-weight: bold; }
        window.chime-center .center-section { padding-top: 10px; font-weight: bold; color: #f0b429; }
        window.chime-center .center-summary { padding-top: 10px; font-weight: bold; color: #6d9eeb; }
        window.chime-center .center-more { color: #6d9eeb; padding: 4px; }
        window.chime-center .center-empty { color: #a3a9b7; padding: 24px; }
        window.chime-center .age { font-size: 0.85em; color: #a3a9b7; }
        window.chime-center .summary { font-weight: bold; }
        window.chime-center .body { font-size: 0.95em; }
        window.chime-center .activity { padding: 12px; }
        window.chime-center .activity-table .heading { font-size: 0.85em; color: #a3a9b7; }
        menu.focus-durations { background-color: #23252b; color: #eceff4; border: 1px solid #3b3f4a; }
        menu.focus-durations menuitem:hover { background-color: #2f4f7f; }
        """
}
