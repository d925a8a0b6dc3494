/// How the notification center keeps, merges and limits notifications (chimed(1)'s notification center).
public struct CenterSettings: Equatable, Sendable {
    /// The same app, summary and body again within this span updates the earlier notification
    /// and bumps its repeat count instead of stacking another; zero merges nothing.
    public var repeatWindow: Duration = .seconds(60)
    public var rateLimit = RateLimit()
    /// After a thread interrupts, its next notifications within this span update its banner in
    /// place without a sound (Android's notification cooldown); zero turns it off.
    public var threadCooldown: Duration = .seconds(120)
    /// Entries kept at most, and for how long; the oldest are pruned.
    public var maximumEntries = 1_000
    public var maximumAgeSeconds: Int64 = 30 * 86_400

    public init() {}

    /// A token bucket per app: `burst` notifications at once, refilled at `perMinute`.
    public struct RateLimit: Equatable, Sendable {
        public enum Action: String, CaseIterable, Sendable {
            /// Delivered into the center without a banner or sound.
            case quiet
            /// Refused with org.freedesktop.Notifications.Error.ExcessNotificationGeneration.
            case refuse
        }

        public var burst = 20
        public var perMinute = 60
        public var action: Action = .quiet

        public init(burst: Int = 20, perMinute: Int = 60, action: Action = .quiet) {
            self.burst = burst
            self.perMinute = perMinute
            self.action = action
        }
    }
}
