extension String {
    /// Whether any UTF-8 byte satisfies `test`: a loop over the string's own storage, several
    /// times faster than walking `utf8` through its index type (this runs on every Notify body).
    @inlinable
    public func containsByte(where test: (UInt8) -> Bool) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: test) }) { return found }
        return utf8.contains(where: test)
    }
}

extension StringProtocol {
    /// Where `needle` first occurs, compared byte for byte. The standard library's
    /// `firstRange(of:)` comes from _StringProcessing, whose regex engine would be linked into
    /// chimed for it, so chimed's modules are built without that module.
    public func firstByteRange(of needle: String) -> Range<String.Index>? {
        let bytes = Array(needle.utf8)
        guard let first = bytes.first else { return nil }
        var from = utf8.startIndex
        while let start = utf8[from...].firstIndex(of: first) {
            guard let end = utf8.index(start, offsetBy: bytes.count, limitedBy: utf8.endIndex) else { return nil }
            if utf8[start..<end].elementsEqual(bytes) { return start..<end }
            from = utf8.index(after: start)
        }
        return nil
    }
}
