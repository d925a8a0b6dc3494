/// The freedesktop server's tunables.
public struct ServerSettings: Equatable, Sendable {
    /// Used when a client sends expire_timeout -1.
    public var defaultTimeout: Duration = .seconds(5)

    public init(defaultTimeout: Duration = .seconds(5)) {
        self.defaultTimeout = defaultTimeout
    }
}
