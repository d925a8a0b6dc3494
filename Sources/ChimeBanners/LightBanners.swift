import CDraw
import ChimeControl
import ChimeCore
import ChimeGLib
import Glibc

/// Banners drawn with cairo and pango onto X11 windows, without GTK: one window per visible
/// notification, stacked in a corner as `BannerStack` says, newest nearest the edge, with a
/// "+N more" line past the visible count.
public final class LightBanners {
    public struct Callbacks {
        /// id, action key, and the startup id made for the click.
        public var invoke: (UInt32, String, String) -> Void
        public var dismiss: (UInt32) -> Void
        /// The pointer entered (true) or left (false) a banner: expiry pauses meanwhile.
        public var hover: (UInt32, Bool) -> Void
        public var dismissAll: () -> Void
        /// A link in the body was opened: the notification counts as read.
        public var openedLink: (UInt32) -> Void

        public init(invoke: @escaping (UInt32, String, String) -> Void, dismiss: @escaping (UInt32) -> Void,
                    hover: @escaping (UInt32, Bool) -> Void, dismissAll: @escaping () -> Void,
                    openedLink: @escaping (UInt32) -> Void) {
            self.invoke = invoke
            self.dismiss = dismiss
            self.hover = hover
            self.dismissAll = dismissAll
            self.openedLink = openedLink
        }
    }

    private final class Shown {
        let drawing: BannerDrawing
        let window: X11Window

        init(_ drawing: BannerDrawing, _ window: X11Window) {
            self.drawing = drawing
            self.window = window
        }
    }

    private var settings: PopupSettings
    private let callbacks: Callbacks
    private let screen: X11Screen
    /// Pango's context for every layout: one font map, one set of font options.
    private let context: OpaquePointer
    private let icons = IconTheme()
    private let log: (String) -> Void
    private var queue = BannerQueue()
    /// Windows exist only for the visible banners: a burst of a thousand costs a thousand small
    /// values, not a thousand windows.
    private var shown: [UInt32: Shown] = [:]
    private var more: (window: X11Window, layout: OpaquePointer)?
    private var ageTimer: UInt32?
    /// Startup ids made for clicks, counted to keep each one unique.
    private var clicks = 0

    /// Banners on the X server `display` names (DISPLAY when nil); nil when it cannot be reached.
    /// `ended`: the server went away.
    public init?(settings: PopupSettings, display: String?, callbacks: Callbacks, log: @escaping (String) -> Void,
                 ended: @escaping () -> Void) {
        guard let screen = X11Screen(display: display) else { return nil }
        self.settings = settings
        self.callbacks = callbacks
        self.screen = screen
        self.log = log
        context = pango_font_map_create_context(pango_cairo_font_map_get_default())
        screen.ended = ended
    }

    deinit {
        shown = [:]
        if let more { g_object_unref(UnsafeMutableRawPointer(more.layout)) }
        more = nil
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    public func update(_ settings: PopupSettings) {
        // A banner is drawn at its width and icon size: when those change, each is drawn anew.
        if (settings.width, settings.iconSize) != (self.settings.width, self.settings.iconSize) { shown = [:] }
        self.settings = settings
        arrange()
    }

    public func show(_ content: BannerContent) {
        if let stale = queue.show(content) { shown[stale] = nil }
        arrange()
    }

    public func show(_ content: BannerContent, replacing previous: UInt32) {
        for stale in queue.show(content, replacing: previous) { shown[stale] = nil }
        arrange()
    }

    public var isShowing: Bool { !queue.isEmpty }

    public func hide(_ id: UInt32) {
        guard queue.hide(id) else { return }
        shown[id] = nil
        arrange()
    }

    /// While the panel is open, banners wait off the screen (their windows freed).
    public var suspended = false {
        didSet { if suspended != oldValue { arrange() } }
    }

    /// Draws the visible banners, places them, and counts the rest in "+N more".
    private func arrange() {
        let visible = suspended ? [] : Array(queue.contents.prefix(max(1, settings.maximumVisible)))
        let visibleIDs = Set(visible.map(\.id))
        for id in shown.keys where !visibleIDs.contains(id) { shown[id] = nil }
        let banners = visible.map { content in shown[content.id] ?? makeBanner(content) }
        let area = screen.workArea
        var stacked = zip(visible, banners).map { ($0.id, $1.drawing.height) }
        if !suspended { stacked += queue.contents.dropFirst(visible.count).map { ($0.id, 0) } }
        let stack = BannerStack(banners: stacked, monitor: (area.width, area.height), settings: settings)
        for (banner, place) in zip(banners, stack.placements) {
            banner.window.place(x: area.x + place.x, y: area.y + place.y, width: banner.drawing.width, height: banner.drawing.height)
        }
        if let moreAt = stack.moreAt {
            let line = more ?? makeMore()
            pango_layout_set_text(line.layout, "+\(stack.hidden) more", -1)
            line.window.place(x: area.x + moreAt.x, y: area.y + moreAt.y, width: settings.width, height: BannerStack.moreHeight)
            line.window.redraw()
        } else {
            more?.window.hide()
        }
    }

    private func makeBanner(_ content: BannerContent) -> Shown {
        let drawing = BannerDrawing(content, settings: settings, context: context, icons: icons, log: log)
        drawing.rounded = screen.isTranslucent
        let window = screen.makeWindow(title: "chime-banner-\(content.id)") { [unowned drawing] cr in drawing.draw(cr) }
        let banner = Shown(drawing, window)
        let id = content.id
        window.pressed = { [unowned self, unowned drawing] button, x, y in
            clicked(content, target: drawing.target(x: x, y: y), button: button)
        }
        window.moved = { [unowned drawing, unowned window] x, y in
            let target = drawing.target(x: x, y: y)
            let over = target == .banner ? nil : target
            if over != drawing.hovered {
                drawing.hovered = over
                window.redraw()
            }
        }
        window.crossed = { [unowned self, unowned drawing, unowned window] entered in
            callbacks.hover(id, entered)
            if !entered, drawing.hovered != nil {
                drawing.hovered = nil
                window.redraw()
            }
        }
        shown[id] = banner
        if content.staysSince != nil, ageTimer == nil {
            // Each banner that stays says its age again every half minute, while there is one.
            ageTimer = GLibSources.timeout(milliseconds: 30_000) { [weak self] in
                guard let self else { return false }
                let now = Int64(g_get_real_time()) / 1_000
                let any = shown.values.map { banner in
                    banner.drawing.refreshAge(now: now) ? (banner.window.redraw(), true).1 : false
                }.contains(true)
                if !any { ageTimer = nil }
                return any
            }
        }
        return banner
    }

    /// A click: the close button dismisses, an action button invokes its action, and anywhere
    /// else the mouse button does what `[popups]` says.
    private func clicked(_ content: BannerContent, target: BannerDrawing.Target, button: Int) {
        let id = content.id
        switch (target, button) {
        case (.close, 1): return callbacks.dismiss(id)
        case (.button(let key), 1): return callbacks.invoke(id, key, startupID(content))
        case (.link(let uri), 1):
            if LinkScheme.isOpenable(uri), DesktopApps.open(uri, log: log) { callbacks.openedLink(id) }
            return
        default: break
        }
        switch settings.click(button) {
        case .defaultAction where content.hasDefaultAction: callbacks.invoke(id, Action.defaultKey, startupID(content))
        case .defaultAction, .dismiss: callbacks.dismiss(id)
        case .dismissAll: callbacks.dismissAll()
        case .menu, .none: break
        }
    }

    /// The startup id that lets the app raise its window for this click (the startup
    /// notification spec): unique, with the click's X server time after "_TIME".
    private func startupID(_ content: BannerContent) -> String {
        clicks += 1
        let app = content.appName.unicodeScalars.filter { $0.isASCII && $0 != " " && $0 != "_" }.map(String.init).joined()
        return "chime-banners-\(getpid())-\(app.isEmpty ? "app" : app)-\(clicks)_TIME\(screen.lastEventTime)"
    }

    private func makeMore() -> (window: X11Window, layout: OpaquePointer) {
        let layout = BannerDrawing.layout(context, "", font: BannerLook.appNameFont)
        let look = BannerLook(level: .active)
        let window = screen.makeWindow(title: "chime-more") { [unowned self] cr in
            cairo_set_source_rgb(cr, look.border.red, look.border.green, look.border.blue)
            cairo_paint(cr)
            cairo_set_source_rgb(cr, look.background.red, look.background.green, look.background.blue)
            cairo_rectangle(cr, 1, 1, Double(settings.width) - 2, Double(BannerStack.moreHeight) - 2)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, look.secondary.red, look.secondary.green, look.secondary.blue)
            cairo_move_to(cr, look.padding, (Double(BannerStack.moreHeight) - BannerDrawing.size(layout).height) / 2)
            pango_cairo_show_layout(cr, layout)
        }
        more = (window, layout)
        return (window, layout)
    }
}
