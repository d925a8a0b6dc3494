/// An app's badge as launchers show it: its unread count, and whether to show it at all.
public struct Badge: Equatable, Sendable {
    public var count: Int
    /// False when the count is zero, the app's badges are off, or the active Focus hides badges.
    public var visible: Bool

    public init(count: Int, visible: Bool) {
        self.count = count
        self.visible = visible
    }
}
