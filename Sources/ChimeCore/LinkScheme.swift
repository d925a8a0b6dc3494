/// The links a body may keep: a click hands one to the desktop's handler, which would run
/// `javascript:`, open a `file:` or start whatever program claims a custom scheme. The
/// sanitizer keeps only these; the presenter checks again before it opens one.
public enum LinkScheme {
    public static let openable = ["http", "https", "mailto"]

    public static func isOpenable(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        return openable.contains(uri[..<colon].lowercased())
    }

    /// A web link's host, a mail link's address.
    public static func destination(_ uri: String) -> String {
        guard let colon = uri.firstIndex(of: ":") else { return uri }
        var rest = uri[uri.index(after: colon)...]
        if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let destination = rest[..<end]
        return destination.isEmpty ? uri : String(destination)
    }
}
