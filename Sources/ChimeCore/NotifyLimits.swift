/// How much of a Notify call Chime keeps. Every text and list an app sends is bounded here, so
/// what one call may cost in memory, on disk and in every record that carries it (Presented,
/// List, History) is bounded too, and no reply or signal can reach D-Bus's limits (64 MiB an
/// array, 128 MiB a message), past which the bus drops the connection that sent it.
/// Longer texts are cut (no one reads them in a banner); chime-hints(7) lists the figures.
public enum NotifyLimits {
    public static let summaryBytes = 1024
    public static let bodyBytes = 64 * 1024
    /// An app's name, or its desktop-entry, names it in the center, in apps.state and to docks.
    public static let appNameBytes = 255
    /// Actions kept, the default action among them; the rest are dropped.
    public static let actions = 16
    /// A key goes back to the app as it came, so a longer one is dropped rather than cut.
    public static let actionKeyBytes = 1024
    public static let actionLabelBytes = 255
    /// Every string hint (a path, a category, a thread, a placeholder) and `app_icon`.
    public static let hintStringBytes = 4096
    /// Strings in a string-array hint (`x-chime-destructive-actions`).
    public static let hintStrings = actions
}

extension String {
    /// This text cut to at most `limit` UTF-8 bytes, at a Unicode scalar boundary (never inside
    /// a UTF-8 sequence); nil when it fits already.
    public func cut(toUTF8 limit: Int) -> String? {
        guard utf8.count > limit else { return nil }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > startIndex, end.samePosition(in: unicodeScalars) == nil {
            end = utf8.index(before: end)
        }
        return String(self[..<end])
    }
}
