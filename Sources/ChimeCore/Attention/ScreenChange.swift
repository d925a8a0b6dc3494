/// What the screen does when a notification arrives or replaces one in place: follows from
/// whether the one it replaces was on screen and whether its decision shows it. Every
/// presented-to-not-presented change takes the banner down, so nothing stays on screen that
/// the model no longer shows.
public enum ScreenChange: Equatable, Sendable {
    /// A new banner.
    case show
    /// The banner on screen, updated in place.
    case update
    /// The banner on screen comes down: what replaced it is not shown (over the rate limit,
    /// held by a Focus turned on since, banners off).
    case withdraw
    /// Nothing on screen before or after.
    case none

    public init(before: NotificationState?, after: NotificationState) {
        switch (before == .presented, after == .presented) {
        case (false, true): self = .show
        case (true, true): self = .update
        case (true, false): self = .withdraw
        case (false, false): self = .none
        }
    }
}
