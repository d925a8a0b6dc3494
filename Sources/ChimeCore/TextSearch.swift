extension String {
    /// Its case folded as people read it, by Unicode: `ÉCOLE` and `école` fold alike. The center's
    /// search (`chime_fold` in SQLite) and the panel's fold the same way.
    public var folded: String {
        utf8.contains { $0 >= 0x80 } ? lowercased() : self
    }

    /// Whether `text` appears in this string, in any case (`folded`). ASCII letters are folded
    /// byte by byte, as SQLite's LIKE folds them.
    public func containsFolded(_ text: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
        let haystack = Array(folded.utf8).map(lower), needle = Array(text.folded.utf8).map(lower)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
