/// The freedesktop server's tunables.
public struct ServerSettings: Equatable, Sendable {
    /// Used when a client sends expire_timeout -1.
    public var defaultTimeout: Duration = .seconds(5)
    /// Open notifications kept: past it, the oldest that can expire expire early, so a flood
    /// cannot grow the daemon without bound (nobody reads thousands of banners). The daemon
    /// trims back to it when idle (`NotificationServer.closeOverLimit`), so closing an old
    /// notification never delays the reply to a new one; only past `hardOpenLimit` does a
    /// Notify trim at once.
    public var maximumOpen = 2_000

    /// An eighth above `maximumOpen`: the most a flood that leaves the daemon no idle moment
    /// can hold open.
    public var hardOpenLimit: Int { maximumOpen + maximumOpen / 8 }

    public init(defaultTimeout: Duration = .seconds(5), maximumOpen: Int = 2_000) {
        self.defaultTimeout = defaultTimeout
        self.maximumOpen = maximumOpen
    }
}
