import CSQLite

/// `chime_fold(text)` in SQL: text with its case folded as people read it, by Unicode, so a
/// search for `école` finds `ÉCOLE` (SQLite's LIKE folds ASCII letters only). ASCII text is
/// given back as it is, for LIKE to fold: most text is, and it costs nothing then.
enum TextFold {
    static let name = "chime_fold"

    static func register(on handle: OpaquePointer?) {
        sqlite3_create_function_v2(handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, fold, nil, nil, nil)
    }

    private static let fold: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, values in
        guard let value = values?[0], let text = sqlite3_value_text(value) else {
            sqlite3_result_null(context)
            return
        }
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
        guard bytes.contains(where: { $0 >= 0x80 }) else {
            sqlite3_result_value(context, value)
            return
        }
        var folded = String(decoding: bytes, as: UTF8.self).folded
        folded.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chime_sqlite_result_text_copy(context, $0.baseAddress, Int32($0.count)) }
        }
    }
}
