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
