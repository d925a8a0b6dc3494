/// The freedesktop server's tunables.
public struct ServerSettings: Equatable, Sendable {
    /// Used when a client sends expire_timeout -1.
    public var defaultTimeout: Duration = .seconds(5)
    /// Open notifications kept: past it, the oldest that can expire are retired (closed early,
    /// kept in the center), so a flood cannot grow the daemon without bound (nobody reads
    /// thousands of banners). Their NotificationClosed waits for the flood to pause.
    public var maximumOpen = 2_000

    public init(defaultTimeout: Duration = .seconds(5), maximumOpen: Int = 2_000) {
        self.defaultTimeout = defaultTimeout
        self.maximumOpen = maximumOpen
    }
}
