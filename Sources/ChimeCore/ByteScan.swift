extension String {
    /// The text's UTF-8 bytes, read in place. `withUTF8` needs a `var`, and copying a string into
    /// one costs a retain and a release each time (the intake log paid it for every text of a
    /// row); only a string not stored as UTF-8 (bridged, which Chime never makes) is copied.
    @inlinable
    public func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }

    /// Whether `first` or `second` occurs among the text's UTF-8 bytes. Eight bytes a step: this
    /// runs on every Notify body, and a 200-byte body took 1,600 instructions a byte at a time.
    public func containsByte(_ first: UInt8, or second: UInt8) -> Bool {
        withUTF8Bytes { Self.contains(first, or: second, in: UnsafeRawBufferPointer($0)) }
    }

    static func contains(_ first: UInt8, or second: UInt8, in bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let (firsts, seconds) = (ones &* UInt64(first), ones &* UInt64(second))
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // A byte equal to the one looked for is zero after the xor; (v - 1) & ~v sets the
            // high bit of a zero byte, and of no byte when none is zero.
            let (a, b) = (word ^ firsts, word ^ seconds)
            if ((a &- ones) & ~a | (b &- ones) & ~b) & highBits != 0 { return true }
            offset += 8
        }
        return bytes[offset...].contains { $0 == first || $0 == second }
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
