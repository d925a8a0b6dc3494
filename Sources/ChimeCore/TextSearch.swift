extension String {
    /// Whether `text` appears in this string, ASCII letters in any case: as the center's search
    /// (SQLite's LIKE) matches, for what must match the same way outside SQLite.
    public func containsIgnoringASCIICase(_ text: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
        let haystack = Array(utf8).map(lower), needle = Array(text.utf8).map(lower)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }
}
