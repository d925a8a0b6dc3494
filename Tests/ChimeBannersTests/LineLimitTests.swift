import Testing
import ChimeCore

/// A banner's text as one paragraph, so GTK's limit on its lines holds for all of it.
@Suite struct LineLimitTests {
    /// Lines stay lines: past the limit the text ends with "…", never run into the last line
    /// ("oneline twoline").
    @Test func lineBreaksBecomeLineSeparatorsAndTheTextEndsAtTheLimit() {
        #expect(LineLimit.oneParagraph("one\ntwo\nthree\nfour", lines: 3) == "one\u{2028}two\u{2028}three…")
        #expect(LineLimit.oneParagraph("one\ntwo", lines: 6) == "one\u{2028}two")
        #expect(LineLimit.oneParagraph("one\ntwo", lines: 1) == "one…")
    }

    @Test func eachRunOfBreaksCountsOnceAndBreaksAtTheEndsGo() {
        #expect(LineLimit.oneParagraph("\n\none\r\n\r\ntwo\u{2029}three\u{2028}four\n\n", lines: 6) ==
                "one\u{2028}two\u{2028}three\u{2028}four")
    }

    @Test func markupIsLeftWhole() {
        #expect(LineLimit.oneParagraph("<b>one\ntwo</b>", lines: 6) == "<b>one\u{2028}two</b>")
        #expect(LineLimit.oneParagraph("no breaks &amp; <i>markup</i>", lines: 2) == "no breaks &amp; <i>markup</i>")
        #expect(LineLimit.oneParagraph("<b>one\n<a href=\"https://x\">two <img src=\"/p\" alt=\"\"/>\nthree</a></b>", lines: 2)
                == "<b>one\u{2028}<a href=\"https://x\">two <img src=\"/p\" alt=\"\"/>…</a></b>", "tags open at the cut are closed")
    }
}
