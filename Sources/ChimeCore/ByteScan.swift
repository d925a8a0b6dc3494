extension String {
    /// The text's UTF-8 bytes, read in place (`withUTF8` needs a `var`); only a string not stored
    /// as UTF-8 (bridged, which Chime never makes) is copied.
    @inlinable
    public func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }

    /// Whether `first` or `second` occurs among the text's UTF-8 bytes.
    public func containsByte(_ first: UInt8, or second: UInt8) -> Bool {
        utf8.contains { $0 == first || $0 == second }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether `text`'s bytes are these from `offset` on (more may follow): a type in a D-Bus
    /// signature, a category's family.
    public func hasBytes(_ text: StaticString, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset >= 0, offset + count <= self.count else { return false }
        for index in 0..<count where self[offset + index] != text.utf8Start[index] { return false }
        return true
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
