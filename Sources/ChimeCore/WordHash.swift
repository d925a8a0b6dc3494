/// FNV-1a over 8-byte little-endian words, the last one padded with zeros: a few hundred
/// instructions for a notification's texts where `Hasher` (SipHash, byte-wise) takes thousands.
/// Not seeded, so it is for digests that are checked or compared in full afterwards, never a
/// dictionary's only defence against keys chosen to collide.
public struct WordHash {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        if offset < bytes.count {
            var last: UInt64 = 0
            withUnsafeMutableBytes(of: &last) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
            mix(UInt64(littleEndian: last))
        }
        // The length too, so "ab" + "c" and "a" + "bc" differ when texts are combined in turn.
        mix(UInt64(bytes.count))
    }

    public mutating func combine(_ text: String) {
        text.withUTF8Bytes { combine(UnsafeRawBufferPointer($0)) }
    }

    private mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0x100_0000_01b3
    }
}
