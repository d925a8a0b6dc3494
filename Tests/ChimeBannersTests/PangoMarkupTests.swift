import ChimeCore
import Testing
import ChimeGLib

/// Banners draw the body with a GtkLabel: b, i and u; an image becomes its alt text and a link
/// underlined text (it opens from a button of its own).
@Suite struct PangoMarkupTests {
    @Test func anImageBecomesItsAltTextAndTheRestStays() {
        let body = "<b>Ada</b> sent <img src=\"/tmp/cat.png\" alt=\"a cat\"/> and <a href=\"https://x\">a link</a>"
        #expect(PangoMarkup.from(body) == "<b>Ada</b> sent a cat and <u>a link</u>")
    }

    @Test func anImageWithoutAltTextGoesAndABodyWithoutImagesIsUntouched() {
        #expect(PangoMarkup.from("before <img src=\"/tmp/x.png\"/>after") == "before after")
        #expect(PangoMarkup.from("<i>no images</i> &lt;img&gt;") == "<i>no images</i> &lt;img&gt;")
    }

    @Test func theImagesSourcesAreFoundInOrderWithTheirEntitiesResolved() {
        let body = "a <img src=\"/tmp/a&amp;b.png\" alt=\"x\"/> b <b><img src=\"mail-unread\" alt=\"\"/></b> <img alt=\"none\"/>"
        #expect(PangoMarkup.imageSources(in: body) == ["/tmp/a&b.png", "mail-unread"])
        #expect(PangoMarkup.imageSources(in: "no images &amp; <i>markup</i>").isEmpty)
    }
}

@Suite struct BodyLinksTests {
    @Test func linksAreFoundWithTheirTextAndNamedByWhereTheyGo() {
        let body = "See <a href=\"https://example.org/a?b=1\"><b>the</b> story</a> or <a href=\"mailto:ada@example.org\">mail</a>"
        let links = PangoMarkup.links(in: body)
        #expect(links.map(\.uri) == ["https://example.org/a?b=1", "mailto:ada@example.org"])
        #expect(links.map(\.text) == ["the story", "mail"])
        #expect(links.map { LinkScheme.destination($0.uri) } == ["example.org", "ada@example.org"])
        #expect(PangoMarkup.from(body) == "See <u><b>the</b> story</u> or <u>mail</u>")
        #expect(!LinkScheme.isOpenable("file:///etc/passwd") && !LinkScheme.isOpenable("javascript:x") && LinkScheme.isOpenable("HTTP://x"))
    }
}
