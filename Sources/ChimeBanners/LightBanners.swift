import CDraw
import ChimeControl
import ChimeCore
import ChimeGLib
import Glibc

/// Banners drawn with cairo and pango, without GTK, on X11 windows or Wayland layer surfaces:
/// one window per visible notification, stacked in a corner as `BannerStack` says, newest
/// nearest the edge, with a "+N more" line past the visible count.
public final class LightBanners {
    public struct Callbacks {
        /// id, action key, and the activation token made for the click.
        public var invoke: (UInt32, String, String) -> Void
        public var dismiss: (UInt32) -> Void
        /// The pointer entered (true) or left (false) a banner: expiry pauses meanwhile.
        public var hover: (UInt32, Bool) -> Void
        public var dismissAll: () -> Void
        /// A link in the body or a file it carries was opened: the notification counts as read.
        public var opened: (UInt32) -> Void
        /// The play button of a notification's sound file (id, its index).
        public var playAttachment: (UInt32, Int) -> Void
        /// The reply field or a menu of actions is to open over a banner (chime-presenter's); the
        /// closure is called once it has closed.
        public var interact: (Interaction, _ closed: @escaping () -> Void) -> Void
        /// A click on "+N more": the panel shows them all.
        public var openCenter: () -> Void

        public init(invoke: @escaping (UInt32, String, String) -> Void, dismiss: @escaping (UInt32) -> Void,
                    hover: @escaping (UInt32, Bool) -> Void, dismissAll: @escaping () -> Void,
                    opened: @escaping (UInt32) -> Void, playAttachment: @escaping (UInt32, Int) -> Void,
                    interact: @escaping (Interaction, _ closed: @escaping () -> Void) -> Void,
                    openCenter: @escaping () -> Void) {
            self.invoke = invoke
            self.dismiss = dismiss
            self.hover = hover
            self.dismissAll = dismissAll
            self.opened = opened
            self.playAttachment = playAttachment
            self.interact = interact
            self.openCenter = openCenter
        }
    }

    private final class Shown {
        let drawing: BannerDrawing
        let window: BannerWindow
        /// Where it was placed last, for what opens over it.
        var placement: WindowPlacement?

        init(_ drawing: BannerDrawing, _ window: BannerWindow) {
            self.drawing = drawing
            self.window = window
        }
    }

    private var settings: PopupSettings
    private let callbacks: Callbacks
    private let screen: BannerScreen
    /// Pango's context for every layout: one font map, one set of font options.
    private let context: OpaquePointer
    private var icons: IconTheme
    private var fonts: BannerFonts
    /// GDK_DPI_SCALE: GTK's setting to make text larger or smaller than the desktop's DPI.
    private let dpiScale: Double
    private let log: (String) -> Void
    private var queue = BannerQueue()
    /// Windows exist only for the visible banners: a burst of a thousand costs a thousand small
    /// values, not a thousand windows.
    private var shown: [UInt32: Shown] = [:]
    private var more: (window: BannerWindow, layout: OpaquePointer)?
    private var ageTimer: UInt32?

    /// The display is there, but banners cannot be placed on it: a Wayland compositor without
    /// wlr-layer-shell.
    public struct CannotPlace: Error {}

    /// Banners on the Wayland compositor WAYLAND_DISPLAY names (it must offer wlr-layer-shell),
    /// else on the X server DISPLAY names; nil when neither can be reached. `ended`: the display
    /// went away.
    public init?(settings: PopupSettings, environment: [String: String], callbacks: Callbacks, log: @escaping (String) -> Void,
                 ended: @escaping () -> Void) throws(CannotPlace) {
        let screen: BannerScreen? = if let wayland = environment["WAYLAND_DISPLAY"] {
            try WaylandScreen(display: wayland)
        } else {
            // GTK's setting for HiDPI screens on X11, where programs draw at the scale they choose.
            X11Screen(display: environment["DISPLAY"], fixedScale: environment["GDK_SCALE"].flatMap { Int($0) })
        }
        guard let screen else { return nil }
        self.settings = settings
        self.callbacks = callbacks
        self.screen = screen
        self.log = log
        context = pango_font_map_create_context(pango_cairo_font_map_get_default())
        dpiScale = environment["GDK_DPI_SCALE"].flatMap { Double($0) } ?? 1
        (icons, fonts) = Self.desktopLook(DesktopSettings(x11: screen.xsettings), context: context, dpiScale: dpiScale)
        screen.ended = ended
        screen.changed = { [unowned self] in arrange() }
        screen.desktopChanged = { [unowned self] in
            (icons, fonts) = Self.desktopLook(DesktopSettings(x11: screen.xsettings), context: context, dpiScale: dpiScale)
            forgetDrawn()
            arrange()
        }
    }

    /// The desktop's icon theme and fonts, and its DPI set on `context`.
    private static func desktopLook(_ desktop: DesktopSettings, context: OpaquePointer, dpiScale: Double) -> (IconTheme, BannerFonts) {
        pango_cairo_context_set_resolution(context, desktop.dpi * dpiScale)
        return (IconTheme(theme: desktop.iconTheme), BannerFonts(desktop: desktop.font))
    }

    /// Drops what is drawn, windows and all: each visible banner is drawn anew by `arrange`.
    private func forgetDrawn() {
        shown = [:]
        if let more { g_object_unref(UnsafeMutableRawPointer(more.layout)) }
        more = nil
    }

    deinit {
        forgetDrawn()
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    public func update(_ settings: PopupSettings) {
        // A banner is drawn at its width and icon size, on its output: when those change, each
        // is drawn anew.
        if (settings.width, settings.iconSize, settings.output) != (self.settings.width, self.settings.iconSize, self.settings.output) {
            forgetDrawn()
        }
        self.settings = settings
        arrange()
    }

    public func show(_ content: BannerContent) {
        if let stale = queue.show(content) { shown[stale] = nil }
    }

    public func show(_ content: BannerContent, replacing previous: UInt32) {
        for stale in queue.show(content, replacing: previous) { shown[stale] = nil }
    }

    public var isShowing: Bool { !queue.isEmpty }

    public func hide(_ id: UInt32) {
        guard queue.hide(id) else { return }
        shown[id] = nil
    }

    /// While the panel is open, banners wait off the screen (their windows freed).
    public var suspended = false {
        didSet { if suspended != oldValue { arrange() } }
    }

    public func arrange() {
        let visible = suspended ? [] : Array(queue.contents.prefix(max(1, settings.maximumVisible)))
        let visibleIDs = Set(visible.map(\.id))
        for id in shown.keys where !visibleIDs.contains(id) { shown[id] = nil }
        let banners = visible.map { content in shown[content.id] ?? makeBanner(content) }
        let area = screen.workArea(output: settings.output)
        var stacked = zip(visible, banners).map { ($0.id, $1.drawing.height) }
        if !suspended { stacked += queue.contents.dropFirst(visible.count).map { ($0.id, 0) } }
        let stack = BannerStack(banners: stacked, monitor: (area.width, area.height), settings: settings)
        for (banner, place) in zip(banners, stack.placements) {
            let placement = WindowPlacement(x: place.x, y: place.y, width: banner.drawing.width, height: banner.drawing.height,
                                            area: area, anchor: settings.anchor)
            banner.placement = placement
            banner.window.place(placement)
        }
        if let moreAt = stack.moreAt {
            let line = more ?? makeMore()
            pango_layout_set_text(line.layout, tr("+{hidden} more", ["hidden": stack.hidden]), -1)
            line.window.place(WindowPlacement(x: moreAt.x, y: moreAt.y, width: settings.width, height: BannerStack.moreHeight,
                                              area: area, anchor: settings.anchor))
            line.window.redraw()
        } else {
            more?.window.hide()
        }
    }

    private func makeBanner(_ content: BannerContent) -> Shown {
        let drawing = BannerDrawing(content, settings: settings, context: context, fonts: fonts, icons: icons,
                                    scale: screen.scale(output: settings.output), log: log)
        drawing.rounded = screen.isTranslucent
        let window = screen.makeWindow(title: "chime-banner-\(content.id)", output: settings.output) { [unowned drawing] cr in drawing.draw(cr) }
        let banner = Shown(drawing, window)
        drawing.changed = { [unowned window] in window.redraw() }
        let id = content.id
        window.pressed = { [unowned self, unowned banner] button, x, y in
            clicked(content, banner, target: banner.drawing.target(x: x, y: y), button: button, at: (x, y))
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
                var any = false
                for banner in shown.values where banner.drawing.refreshAge(now: now) {
                    banner.window.redraw()
                    any = true
                }
                if !any { ageTimer = nil }
                return any
            }
        }
        return banner
    }

    /// A click: the close button dismisses, an action button invokes its action, and anywhere
    /// else the mouse button does what `[popups]` says.
    private func clicked(_ content: BannerContent, _ banner: Shown, target: BannerDrawing.Target, button: Int, at point: (x: Double, y: Double)) {
        let id = content.id
        // Opens chime-presenter's reply field or menu over `frame` of the banner.
        func interact(_ kind: Interaction.Kind, _ frame: BannerDrawing.Frame?) {
            guard let frame else { return }
            guard let placement = banner.placement else { return }
            banner.window.yield(true)
            let area = placement.area
            let interaction = Interaction(kind: kind, id: id, x: placement.x + Int(frame.x), y: placement.y + Int(frame.y),
                                          width: Int(frame.width), height: Int(frame.height), area: (area.x, area.y, area.width, area.height))
            callbacks.interact(interaction) { [weak window = banner.window] in window?.yield(false) }
        }
        switch (target, button) {
        case (.reply, 1): return interact(.reply, banner.drawing.frame(of: .reply))
        case (.more, 1): return interact(.more, banner.drawing.frame(of: .more))
        case (.close, 1): return callbacks.dismiss(id)
        case (.button(let key), 1): return invoke(content, key)
        case (.link(let uri), 1):
            if LinkScheme.isOpenable(uri), DesktopApps.open(uri, log: log) { callbacks.opened(id) }
            return
        case (.attachment(let index), 1):
            guard index < content.attachments.count else { return }
            let file = content.attachments[index]
            if file.kind == .audio, AttachmentFiles.playable(file) { return callbacks.playAttachment(id, index) }
            if let uri = MovieThumbnails.uri(file.path), DesktopApps.open(uri, log: log) { callbacks.opened(id) }
            return
        default: break
        }
        switch settings.click(button) {
        case .defaultAction where content.hasDefaultAction: invoke(content, Action.defaultKey)
        case .defaultAction, .dismiss: callbacks.dismiss(id)
        case .dismissAll: callbacks.dismissAll()
        case .menu where !content.menu.isEmpty: interact(.menu, BannerDrawing.Frame(x: point.x, y: point.y, width: 1, height: 1))
        case .menu, .none: break
        }
    }

    /// Invokes an action with the token that lets its app come to the front (on Wayland the
    /// compositor's answer comes a moment after the click).
    private func invoke(_ content: BannerContent, _ key: String) {
        let id = content.id
        screen.activationToken(appName: content.appName) { [callbacks] token in callbacks.invoke(id, key, token) }
    }

    private func makeMore() -> (window: BannerWindow, layout: OpaquePointer) {
        let layout = BannerDrawing.layout(context, "", font: fonts.appName)
        let look = BannerLook(level: .active)
        let window = screen.makeWindow(title: "chime-more", output: settings.output) { [unowned self] cr in
            cairo_set_source_rgb(cr, look.border.red, look.border.green, look.border.blue)
            cairo_paint(cr)
            cairo_set_source_rgb(cr, look.background.red, look.background.green, look.background.blue)
            cairo_rectangle(cr, 1, 1, Double(settings.width) - 2, Double(BannerStack.moreHeight) - 2)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, look.secondary.red, look.secondary.green, look.secondary.blue)
            cairo_move_to(cr, look.padding, (Double(BannerStack.moreHeight) - BannerDrawing.size(layout).height) / 2)
            pango_cairo_show_layout(cr, layout)
        }
        window.pressed = { [callbacks] button, _, _ in if button == 1 { callbacks.openCenter() } }
        more = (window, layout)
        return (window, layout)
    }
}
