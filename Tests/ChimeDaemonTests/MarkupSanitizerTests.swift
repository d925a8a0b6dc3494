import Testing
@testable import ChimeDaemon

@Suite struct MarkupSanitizerTests {
    let sanitizer = MarkupSanitizer { $0 == "/ok.png" ? $0 : $0 == "file:///ok.png" ? "/ok.png" : nil }

    @Test(arguments: [
        ("plain text", "plain text"),
        ("<b>bold</b> <i>it</i> <u>u</u>", "<b>bold</b> <i>it</i> <u>u</u>"),
        ("<a href=\"https://x.org/?a=1&amp;b=2\">link</a>", "<a href=\"https://x.org/?a=1&amp;b=2\">link</a>"),
        ("<img src=\"/ok.png\" alt=\"pic\"/>", "<img src=\"/ok.png\" alt=\"pic\"/>"),
        ("<img src=\"file:///ok.png\" alt=\"pic\"/>", "<img src=\"/ok.png\" alt=\"pic\"/>"),
        ("line<br/>next", "line\nnext"),
        // HTML's unclosed <br>, in any case: a line break, and the rest of the markup stands.
        ("<b>one</b><br>two<BR >three<br/>four", "<b>one</b>\ntwo\nthree\nfour"),
        ("<brother>", "&lt;brother&gt;"),
        ("5 &lt; 6 &amp; 7", "5 &lt; 6 &amp; 7"),
    ])
    func allowedMarkupIsKept(input: String, expected: String) {
        #expect(sanitizer.sanitize(input) == expected)
    }

    /// A click hands a link to the desktop's handler: only web and mail links stay links; any
    /// other (javascript:, file:, a custom scheme, no scheme) keeps its text, as text.
    @Test(arguments: [
        ("<a href=\"HTTPS://x.org\">web</a>", "<a href=\"HTTPS://x.org\">web</a>"),
        ("<a href=\"mailto:ada@x.org\">mail</a>", "<a href=\"mailto:ada@x.org\">mail</a>"),
        ("<a href=\"javascript:alert(1)\">run</a>", "run"),
        ("<a href=\"file:///home/ada/.ssh/id_ed25519\">key</a>", "key"),
        ("<a href=\"steam://run/1\"><b>play</b></a>", "<b>play</b>"),
        ("<a href=\"relative/path\">here</a>", "here"),
    ])
    func onlyWebAndMailLinksStayLinks(input: String, expected: String) {
        #expect(sanitizer.sanitize(input) == expected)
    }

    /// Design section 1: other tags are removed and their text kept, as dunst and mako show them.
    @Test func otherTagsAreRemovedAndTheirTextKept() {
        #expect(sanitizer.sanitize("<blink>x</blink>") == "x")
        #expect(sanitizer.sanitize("<script>alert(1)</script><b>x</b>") == "alert(1)<b>x</b>")
        #expect(sanitizer.sanitize("<span foreground=\"red\"><b>hot</b> &amp; cold</span>") == "<b>hot</b> &amp; cold")
    }

    @Test func attributesOtherThanTheAllowedOnesAreDropped() {
        #expect(sanitizer.sanitize("<b style=\"x\">y</b><a href=\"https://h\" onclick=\"e\">z</a>") == "<b>y</b><a href=\"https://h\">z</a>")
    }

    @Test func anImageThatFailsTheCheckBecomesItsAltText() {
        #expect(sanitizer.sanitize("<img src=\"/etc/passwd\" alt=\"a &lt;pic&gt;\"/>") == "a &lt;pic&gt;")
    }

    /// One '&' or '<' that cannot begin markup is escaped, and the rest of the markup stays.
    @Test(arguments: [
        ("Tom & Jerry <b>tonight</b>", "Tom &amp; Jerry <b>tonight</b>"),
        ("I <3 you, <i>really</i>", "I &lt;3 you, <i>really</i>"),
        ("5 < 6 and <u>7 > 6</u>", "5 &lt; 6 and <u>7 &gt; 6</u>"),
        ("AT&T&nbsp;<b>x</b>", "AT&amp;T&amp;nbsp;<b>x</b>"),
        ("&#169; &#xA9; &amp; <b>x</b> &", "© © &amp; <b>x</b> &amp;"),
        ("<b>trailing</b> <", "<b>trailing</b> &lt;"),
    ])
    func aStrayAmpersandOrAngleLeavesTheRestOfTheMarkup(input: String, expected: String) {
        #expect(sanitizer.sanitize(input) == expected)
    }

    @Test(arguments: ["<b>unclosed", "Tom & Jerry", "<b><i>crossed</b></i>", "&nbsp;", "a < b"])
    func malformedMarkupIsShownAsText(input: String) {
        let output = sanitizer.sanitize(input)
        #expect(!output.contains("<"))
        #expect(MarkupSanitizerTests.unescape(output) == input)
    }

    static func unescape(_ text: String) -> String {
        text.replacingAll("&lt;", "<").replacingAll("&gt;", ">").replacingAll("&quot;", "\"")
            .replacingAll("&apos;", "'").replacingAll("&#39;", "'").replacingAll("&amp;", "&")
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
