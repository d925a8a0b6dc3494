/// Where the Notification Center panel goes (`[panel]`): a column the height of the screen
/// against its left or right edge.
public struct PanelSettings: Equatable, Sendable {
    public enum Edge: String, CaseIterable, Sendable {
        case right, left
    }

    public var edge = Edge.right
    public var width = 420
    /// The monitor, by connector name; else the primary one on X11, and on Wayland the
    /// compositor's choice (the focused output).
    public var output: String?

    public init() {}
}
