/// The links a body may keep: a click hands one to the desktop's handler, which would run
/// `javascript:`, open a `file:` or start whatever program claims a custom scheme. The
/// sanitizer keeps only these; the presenter checks again before it opens one.
public enum LinkScheme {
    public static let openable = ["http", "https", "mailto"]

    public static func isOpenable(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        return openable.contains(uri[..<colon].lowercased())
    }
}
