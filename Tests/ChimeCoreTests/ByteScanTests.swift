import ChimeCore
import Testing

/// `firstByteRange(of:)` stands in for the standard library's `firstRange(of:)`, which chimed's
/// modules are built without.
@Suite struct ByteScanTests {
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
