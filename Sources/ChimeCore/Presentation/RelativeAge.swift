/// How long ago a banner that stays came, as it says so ("5 min ago"), as the center does.
public enum RelativeAge {
    /// `created` and `now` in unix milliseconds.
    public static func text(since created: Int64, now: Int64) -> String {
        let minutes = max(0, now - created) / 60_000
        switch minutes {
        case 0: return "now"
        case ..<60: return "\(minutes) min ago"
        case ..<(24 * 60): return "\(minutes / 60) h ago"
        default: return "\(minutes / (24 * 60)) d ago"
        }
    }
}
