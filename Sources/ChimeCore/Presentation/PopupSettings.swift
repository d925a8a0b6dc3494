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

    /// What a click of each mouse button on a banner does (`[popups] left-click`, `middle-click`,
    /// `right-click`), as dunst's `mouse_left_click` and friends.
    public enum ClickAction: String, CaseIterable, Sendable {
        /// The notification's default action, or dismiss when it has none.
        case defaultAction = "default-action"
        case dismiss
        case dismissAll = "dismiss-all"
        /// A menu of all its actions (past the four buttons too).
        case menu
        case none
    }

    /// How long chime-presenter stays with nothing on screen before it exits (`idle-exit`): it
    /// costs memory only while banners are shown, and chimed starts it again for the next one.
    /// Zero: it stays.
    public var idleExit: Duration = .seconds(30)

    public var leftClick = ClickAction.defaultAction
    public var middleClick = ClickAction.dismiss
    public var rightClick = ClickAction.dismiss

    /// What a click of mouse button `button` (1 left, 2 middle, 3 right) on a banner does.
    public func click(_ button: Int) -> ClickAction {
        switch button {
        case 1: leftClick
        case 2: middleClick
        case 3: rightClick
        default: .none
        }
    }

    public init() {}
}

/// Whether banners have somewhere to go: an X11 or a Wayland display in the environment.
public func hasDisplay(_ environment: [String: String]) -> Bool {
    environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
}
