import ChimeCore

/// A rectangle of the screen, in pixels.
struct ScreenArea: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// What this area and `other` both cover; nil when they do not meet.
    func intersection(_ other: ScreenArea) -> ScreenArea? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        return right > left && bottom > top ? ScreenArea(x: left, y: top, width: right - left, height: bottom - top) : nil
    }
}

/// Where a banner's window goes: its frame in the work area's coordinates, and the stack's
/// corner. X11 places the window at the frame; Wayland anchors the surface to the corner's edges
/// and gives its distances to them, which do not depend on the area's size.
struct WindowPlacement: Equatable {
    var x: Int, y: Int, width: Int, height: Int
    var area: ScreenArea
    var anchor: PopupSettings.Anchor
}

/// The display banners are drawn on: X11 (`X11Screen`) or a Wayland compositor with
/// wlr-layer-shell (`WaylandScreen`).
protocol BannerScreen: AnyObject {
    /// The area a stack is worked out in: on X11 the work area of the monitor `output` names,
    /// else of the primary one.
    func workArea(output: String?) -> ScreenArea
    /// Pixels to a unit of a window made for `output` (2 on most HiDPI screens), which its images
    /// are decoded at; sizes and points are in units.
    func scale(output: String?) -> Int
    /// What the X11 desktop says of fonts, icons and scale (nil on Wayland).
    var xsettings: XSettings? { get }
    /// Called when what the desktop says of fonts and icons changed (X11's settings daemon).
    var desktopChanged: () -> Void { get set }
    /// Whether pixels a window leaves transparent show what is beneath it.
    var isTranslucent: Bool { get }
    /// Called once when the display goes away.
    var ended: () -> Void { get set }
    /// Called when the work area or the monitors changed: banners are placed again.
    var changed: () -> Void { get set }
    /// A window named `title`, not yet shown, on the output named `output` when there is one
    /// (else the primary or the compositor's choice); `draw` paints it with cairo.
    func makeWindow(title: String, output: String?, draw: @escaping (OpaquePointer) -> Void) -> BannerWindow
    /// What lets the app raise its window for the click just made: an xdg-activation token the
    /// compositor issues, or an X11 startup id with the click's time; "" when there is none.
    func activationToken(appName: String, _ done: @escaping (String) -> Void)
}

/// One window of a banner (or the "+N more" line), with what the pointer does over it.
protocol BannerWindow: AnyObject {
    /// A mouse button (1 left, 2 middle, 3 right) at a point of the window.
    var pressed: ((Int, Double, Double) -> Void)? { get set }
    var moved: ((Double, Double) -> Void)? { get set }
    /// The pointer came in (true) or left (false).
    var crossed: ((Bool) -> Void)? { get set }
    /// Places the window and shows it.
    func place(_ placement: WindowPlacement)
    func hide()
    /// Paints it again (its content changed).
    func redraw()
    /// Lets another program's window opened over it show above it (true), or stops (false):
    /// X11 stacks the window mapped last on top anyway; wlr-layer-shell leaves the order of
    /// surfaces on one layer to the compositor (sway 1.7 draws the newest below), so the banner
    /// steps down to the layer under the overlay one meanwhile.
    func yield(_ below: Bool)
}
