/// FNV-1a over 8-byte little-endian words, the last one padded with zeros: a few hundred
/// instructions for a notification's texts where `Hasher` (SipHash, byte-wise) takes thousands.
/// Not seeded, so it is for digests that are checked or compared in full afterwards, never a
/// dictionary's only defence against keys chosen to collide.
public struct WordHash {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        let words = bytes.count / 8
        var value = self.value
        // Over a range of word indices, the loop needs no overflow checks: 5 instructions a
        // word where `offset + 8 <= count` with its checks took 10.
        if let base = bytes.baseAddress {
            for index in 0..<words {
                value = Self.mix(value, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)))
            }
        }
        if words * 8 < bytes.count {
            var last: UInt64 = 0
            withUnsafeMutableBytes(of: &last) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(words * 8)...])) }
            value = Self.mix(value, UInt64(littleEndian: last))
        }
        // The length too, so "ab" + "c" and "a" + "bc" differ when texts are combined in turn.
        self.value = Self.mix(value, UInt64(bytes.count))
    }

    public mutating func combine(_ text: String) {
        text.withUTF8Bytes { combine(UnsafeRawBufferPointer($0)) }
    }

    private static func mix(_ value: UInt64, _ word: UInt64) -> UInt64 {
        (value ^ word) &* 0x100_0000_01b3
    }
}
