import ChimeCore
import Testing

/// `firstByteRange(of:)` stands in for the standard library's `firstRange(of:)`, which chimed's
/// modules are built without; `containsByte(_:or:)` looks at eight bytes a step.
@Suite struct ByteScanTests {
    /// A string's bytes as they are, whether small (kept inside the String), large or not ASCII,
    /// and through a copy made from a substring.
    @Test func utf8BytesAreTheTextsOwn() {
        for text in ["", "im", "x-chime-interruption-level", "Grüße, 日本 🙂 and more than fifteen bytes",
                     String("ab🙂cd".dropFirst(2))] {
            #expect(text.withUTF8Bytes { Array($0) } == Array(text.utf8), "\(text)")
        }
    }

    /// At every position of texts of every length up to three words, in a word or in the tail.
    @Test func findsEitherByteAtAnyPosition() {
        for length in 1...24 {
            for position in 0..<length {
                for found in ["<", "&"] {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(ascii: Unicode.Scalar(found)!)
                    let text = String(decoding: bytes, as: UTF8.self)
                    #expect(text.containsByte(UInt8(ascii: "<"), or: UInt8(ascii: "&")), "\(text)")
                }
            }
        }
    }

    @Test func bytesAreFoundWhereTheyStartAndNowhereElse() {
        let bytes: [UInt8] = Array("a{sv}i".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(buffer.hasBytes("a{sv}", at: 0) && buffer.hasBytes("i", at: 5) && buffer.hasBytes("", at: 6))
            #expect(!buffer.hasBytes("a{sv}", at: 1) && !buffer.hasBytes("ii", at: 5) && !buffer.hasBytes("i", at: 6))
            #expect(!buffer.hasBytes("a", at: -1))
        }
    }

    /// Neighbours of the bytes looked for, and bytes past ASCII, which the word test must not
    /// take for them.
    @Test func findsNothingInTextWithoutEither() {
        #expect(!"".containsByte(UInt8(ascii: "<"), or: UInt8(ascii: "&")))
        let near = String(repeating: ";=%'\u{7F}Grüße ≤ ½ \u{1F514}", count: 3)
        #expect(!near.containsByte(UInt8(ascii: "<"), or: UInt8(ascii: "&")))
        #expect((near + "&").containsByte(UInt8(ascii: "<"), or: UInt8(ascii: "&")))
        // ü is C3 BC in UTF-8: bytes, not characters, are looked for.
        #expect("Grüße".containsByte(0xBC, or: UInt8(ascii: "<")))
        #expect(!"Grüße".containsByte(0xBD, or: 0x00))
    }

    @Test func findsTheFirstOccurrence() {
        let text = "<node><interface name=\"a\">x</interface><interface name=\"b\"/></node>"
        let range = text.firstByteRange(of: "<interface")
        #expect(range.map { String(text[$0]) } == "<interface")
        #expect(range.map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } == 6)
    }

    @Test func findsAtTheStartAndTheEnd() {
        #expect("abc".firstByteRange(of: "ab").map { "abc"[$0] } == "ab")
        #expect("abc".firstByteRange(of: "bc").map { "abc"[$0] } == "bc")
        #expect("abc".firstByteRange(of: "abc").map { "abc"[$0] } == "abc")
    }

    @Test func aFalseStartDoesNotHideALaterMatch() {
        let text = "aaab"
        let range = text.firstByteRange(of: "aab")
        #expect(range.map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } == 1)
    }

    @Test func findsNothingWhenAbsentCutShortOrEmpty() {
        #expect("abc".firstByteRange(of: "abd") == nil)
        #expect("abc".firstByteRange(of: "bcd") == nil)
        #expect("abc".firstByteRange(of: "") == nil)
        #expect("".firstByteRange(of: "a") == nil)
    }

    @Test func searchesInsideASubstringAndBeyondASCII() {
        let text = "Grüße </b> und </b>"
        let first = text.firstByteRange(of: "</b>")!
        let second = text[first.upperBound...].firstByteRange(of: "</b>")
        #expect(second.map { text[$0.lowerBound...] } == "</b>")
        #expect(second!.lowerBound > first.upperBound)
        #expect(text.firstByteRange(of: "üß").map { String(text[$0]) } == "üß")
    }
}
