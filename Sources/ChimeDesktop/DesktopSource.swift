import ChimeCore

/// A display that says which window has the focus: the compositor on Wayland, the window
/// manager on X11.
public protocol DesktopSource: AnyObject {
    var source: DesktopContext.Source { get }
}

/// Why a source stopped saying anything.
public enum DesktopSourceEnding: Equatable, Sendable {
    /// The display is there but does not say (a compositor without the protocol); the text says what is missing.
    case unsupported(String)
    /// The connection to the display ended.
    case disconnected
}
