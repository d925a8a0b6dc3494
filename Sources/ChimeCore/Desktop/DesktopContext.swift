/// What the person is doing, as the desktop says (chimed(1), "What you are doing"): which
/// app's window has the focus, and whether it fills the screen. An adapter watches the display
/// and hands it over as a value; with no source the rules that need it do not apply.
public struct DesktopContext: Equatable, Sendable {
    /// Where the context comes from.
    public enum Source: String, Sendable {
        /// wlroots compositors (sway, Hyprland, river, labwc, Wayfire): wlr-foreign-toplevel-management.
        case wlrForeignToplevel = "wlr-foreign-toplevel"
        /// X11 window managers: `_NET_ACTIVE_WINDOW` and `_NET_WM_STATE` (EWMH).
        case ewmh
    }

    /// The focused window.
    public struct Window: Equatable, Sendable {
        /// The names its app goes by: a Wayland app id (usually its desktop entry's name), or
        /// X11's `_GTK_APPLICATION_ID` and both parts of `WM_CLASS`.
        public var appIDs: [String]
        /// Who runs it, when the display names its process (X11's `_NET_WM_PID`).
        public var identity: SenderIdentity?
        public var fullscreen: Bool
        /// The output it is on, by name, when the display says.
        public var output: String?

        public init(appIDs: [String], identity: SenderIdentity? = nil, fullscreen: Bool = false, output: String? = nil) {
            self.appIDs = appIDs
            self.identity = identity
            self.fullscreen = fullscreen
            self.output = output
        }
    }

    /// nil: nothing is watched (no display, or one that does not say).
    public var source: Source?
    public var focused: Window?

    public init(source: Source? = nil, focused: Window? = nil) {
        self.source = source
        self.focused = focused
    }

    public var fullscreen: Bool { focused?.fullscreen ?? false }

    /// Whether a notification of `appIdentity` (its desktop entry, else its name) sent by
    /// `system` comes from the focused window's app: by name, either way round, or by the
    /// process behind both.
    public func isFocused(appIdentity: String, system: SenderIdentity?) -> Bool {
        guard let focused else { return false }
        if let system, let identity = focused.identity, system == identity { return true }
        let names = [appIdentity, system?.kind == .executable ? nil : system?.id].compactMap { $0.map(Self.normalized) }
        return focused.appIDs.contains { names.contains(Self.normalized($0)) }
    }

    /// `org.gnome.Nautilus.desktop` and `org.gnome.nautilus` name the same app.
    static func normalized(_ name: String) -> String {
        let lowered = name.lowercased()
        return lowered.hasSuffix(".desktop") ? String(lowered.dropLast(8)) : lowered
    }
}
