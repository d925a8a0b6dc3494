import CGLib

/// A GLib (PCRE) regular expression, compiled once. GRegex is immutable once made and GLib
/// matches with it from any thread, so one may be shared.
public final class Regex: @unchecked Sendable {
    public let source: String
    private let raw: OpaquePointer

    /// How many steps one match may take (PCRE's match limit, whose own default is ten million):
    /// within it an ordinary pattern reads a notification's 64 KB; past it one that backtracks
    /// without end (`(a+)+$`) gives up in a fraction of a millisecond.
    public static let matchBudget = 100_000

    /// Compiles `source`, or gives GLib's reason it cannot ("missing terminating ] for
    /// character class at char 3").
    public static func compile(_ source: String) -> Result<Regex, RegexError> {
        var error: UnsafeMutablePointer<GError>?
        guard let raw = g_regex_new("(*LIMIT_MATCH=\(matchBudget))" + source, G_REGEX_OPTIMIZE, GRegexMatchFlags(0), &error) else {
            // GLib's words about the pattern as the user wrote it, its place in it too.
            var plain: UnsafeMutablePointer<GError>?
            if let compiled = g_regex_new(source, GRegexCompileFlags(0), GRegexMatchFlags(0), &plain) { g_regex_unref(compiled) }
            if plain != nil {
                g_clear_error(&error)
                return .failure(RegexError(message: KeyFile.take(&plain)))
            }
            return .failure(RegexError(message: KeyFile.take(&error)))
        }
        return .success(Regex(source, raw))
    }

    private init(_ source: String, _ raw: OpaquePointer) {
        self.source = source
        self.raw = raw
    }

    deinit { g_regex_unref(raw) }

    /// Whether it matches anywhere in `text`; nil when the match met its budget (or failed).
    public func matches(_ text: String) -> Bool? {
        var error: UnsafeMutablePointer<GError>?
        let matched = g_regex_match_full(raw, text, -1, 0, GRegexMatchFlags(0), nil, &error) != 0
        guard let error else { return matched }
        g_error_free(error)
        return nil
    }
}

public struct RegexError: Error, Equatable {
    public var message: String
}
