import Testing
@testable import ChimeCore

@Suite struct WordHashTests {
    func hash(_ texts: String...) -> UInt64 {
        var hash = WordHash()
        for text in texts { hash.combine(text) }
        return hash.value
    }

    @Test func theSameTextsGiveTheSameValue() {
        #expect(hash("mail", "New message", String(repeating: "b", count: 200)) ==
                hash("mail", "New message", String(repeating: "b", count: 200)))
    }

    /// The intake log's records carry this value: a chimed that computed another could not read
    /// the log an earlier one left. Values worked out apart from the code (FNV-1a over
    /// little-endian words, the last padded with zeros, then the length).
    @Test func theValuesAreThoseOnDisk() {
        let body = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 4)
        #expect(hash("org.example.Bench", "Summary", body) == 0x3d45_8f51_ba2d_7901)
        #expect(hash("") == 0xaf63_bd4c_8601_b7df)
        #expect(hash("a") == 0x089b_e307_b544_f397)
        #expect(hash(String(repeating: "abcdefgh", count: 5) + "xyz") == 0xd769_09ae_758d_3f21)
    }

    @Test func anyDifferenceChangesIt() {
        let body = String(repeating: "x", count: 203)
        let base = hash("app", "summary", body)
        #expect(hash("app", "summary", body + "y") != base, "a byte more")
        #expect(hash("app", "summary", String(body.dropLast()) + "y") != base, "the last byte, in the padded word")
        #expect(hash("app", "summarY", body) != base)
        #expect(hash("ap", "psummary", body) != base, "where one text ends and the next begins")
        #expect(hash("a") != hash("a\u{0}"), "a zero byte is not padding")
        #expect(hash("") != hash(), "an empty text counts")
    }
}
