import CGLib

/// A GLib (PCRE) regular expression, compiled once. GRegex is immutable once made and GLib
/// matches with it from any thread, so one may be shared.
public final class Regex: @unchecked Sendable {
    public let source: String
    private let raw: OpaquePointer

    /// Compiles `source`, or gives GLib's reason it cannot ("missing terminating ] for
    /// character class at char 3").
    public static func compile(_ source: String) -> Result<Regex, RegexError> {
        var error: UnsafeMutablePointer<GError>?
        guard let raw = g_regex_new(source, G_REGEX_OPTIMIZE, GRegexMatchFlags(0), &error) else {
            return .failure(RegexError(message: KeyFile.take(&error)))
        }
        return .success(Regex(source, raw))
    }

    private init(_ source: String, _ raw: OpaquePointer) {
        self.source = source
        self.raw = raw
    }

    deinit { g_regex_unref(raw) }

    /// Whether it matches anywhere in `text`.
    public func matches(_ text: String) -> Bool { g_regex_match(raw, text, GRegexMatchFlags(0), nil) != 0 }
}

public struct RegexError: Error, Equatable {
    public var message: String
}
