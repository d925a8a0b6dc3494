/// Where and how banners appear: the `[popups]` section of the config.
public struct PopupSettings: Equatable, Sendable {
    public enum Anchor: String, CaseIterable, Sendable {
        case topRight = "top-right", topLeft = "top-left", bottomRight = "bottom-right", bottomLeft = "bottom-left"
        case top, bottom

        public var isTop: Bool { self == .topRight || self == .topLeft || self == .top }
    }

    public var enabled = true
    public var anchor: Anchor = .topRight
    /// Pixels between the screen edge and the stack.
    public var margin = 12
    /// Pixels between banners.
    public var gap = 8
    public var width = 380
    /// Banners shown at once; beyond them one "+N more" line.
    public var maximumVisible = 5
    public var iconSize = 48
    /// The monitor: its connector name (as xrandr or swaymsg names it). Else the primary one on
    /// X11, and on Wayland the compositor's choice (the focused output).
    public var output: String?

    public init() {}
}

/// Whether banners have somewhere to go: an X11 or a Wayland display in the environment.
public func hasDisplay(_ environment: [String: String]) -> Bool {
    environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
}
