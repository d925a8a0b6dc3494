import CGLib

/// GLib's GKeyFile: the INI reader and writer for chime.conf and the saved app state.
public final class KeyFile {
    private let raw: OpaquePointer

    public init() { raw = g_key_file_new() }
    deinit { g_key_file_free(raw) }

    /// Parses `text`; returns GLib's message when it is not a key file.
    public func load(_ text: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let ok = g_key_file_load_from_data(raw, text, gsize(text.utf8.count), G_KEY_FILE_NONE, &error) != 0
        return ok ? nil : Self.take(&error)
    }

    public var groups: [String] {
        var count: gsize = 0
        guard let list = g_key_file_get_groups(raw, &count) else { return [] }
        defer { g_strfreev(list) }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }

    public func keys(in group: String) -> [String] {
        var count: gsize = 0
        guard let list = g_key_file_get_keys(raw, group, &count, nil) else { return [] }
        defer { g_strfreev(list) }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }

    /// `text` as a group's name: GKeyFile takes no `[`, `]` or control characters there, so those
    /// (and `%`, and bytes past ASCII that are not UTF-8) are written %XX, as in a URI.
    public static func escaped(_ text: String) -> String {
        guard let escaped = g_uri_escape_string(text, " !\"#$&'()*+,/:;<=>?@\\^`{|}~", 1) else { return text }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    /// A group's name as `escaped` wrote it; one that is no such escape, as it is.
    public static func unescaped(_ group: String) -> String {
        guard group.contains("%"), let text = g_uri_unescape_string(group, nil) else { return group }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The value with GKeyFile's escapes (\n, \s, ...) undone.
    public func string(_ group: String, _ key: String) -> String? {
        guard let value = g_key_file_get_string(raw, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// The value exactly as written, GKeyFile's escapes kept: a regular expression's `\d` is
    /// not one of them, and `string` refuses it.
    public func rawValue(_ group: String, _ key: String) -> String? {
        guard let value = g_key_file_get_value(raw, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// A ';'-separated list, trimmed, without empty items.
    public func list(_ group: String, _ key: String) -> [String] {
        var count: gsize = 0
        guard let list = g_key_file_get_string_list(raw, group, key, &count, nil) else { return [] }
        defer { g_strfreev(list) }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
            .map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
    }

    public func set(_ group: String, _ key: String, _ value: String) {
        g_key_file_set_string(raw, group, key, value)
    }

    public var text: String {
        guard let data = g_key_file_to_data(raw, nil, nil) else { return "" }
        defer { g_free(data) }
        return String(cString: data)
    }

    static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}

/// Whole-file reads and atomic writes through GLib.
public enum FileContents {
    public static func read(_ path: String) -> Result<String, FileError> {
        var contents: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard g_file_get_contents(path, &contents, &length, &error) != 0, let contents else {
            let missing = error?.pointee.domain == g_file_error_quark() && error?.pointee.code == Int32(G_FILE_ERROR_NOENT.rawValue)
            return .failure(FileError(message: KeyFile.take(&error), missing: missing))
        }
        defer { g_free(contents) }
        return .success(String(decoding: UnsafeRawBufferPointer(start: contents, count: Int(length)), as: UTF8.self))
    }

    /// Writes through a temporary file and a rename, with the given mode, creating parent folders (0700).
    public static func write(_ text: String, to path: String, mode: Int32 = 0o600) -> FileError? {
        if let slash = path.lastIndex(of: "/") {
            g_mkdir_with_parents(String(path[..<slash]), 0o700)
        }
        var error: UnsafeMutablePointer<GError>?
        let ok = g_file_set_contents_full(path, text, gssize(text.utf8.count),
                                          G_FILE_SET_CONTENTS_CONSISTENT, mode, &error) != 0
        return ok ? nil : FileError(message: KeyFile.take(&error), missing: false)
    }

    public struct FileError: Error {
        public var message: String
        public var missing: Bool
    }
}

extension String {
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
