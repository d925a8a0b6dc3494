/// How long ago a banner that stays came, as it says so ("5 min ago"), as the center does.
public enum RelativeAge {
    /// `created` and `now` in unix milliseconds.
    public static func text(since created: Int64, now: Int64) -> String {
        let minutes = max(0, now - created) / 60_000
        switch minutes {
        case 0: return tr("now")
        case ..<60: return trn("{n} min ago", "{n} min ago", Int(minutes))
        case ..<(24 * 60): return trn("{n} h ago", "{n} h ago", Int(minutes / 60))
        default: return trn("{n} d ago", "{n} d ago", Int(minutes / (24 * 60)))
        }
    }
}
