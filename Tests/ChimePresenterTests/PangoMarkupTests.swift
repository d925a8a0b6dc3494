import Testing
@testable import ChimePresenter

/// Banners draw the body with a GtkLabel, which knows b, i, u and links but not images.
@Suite struct PangoMarkupTests {
    @Test func anImageBecomesItsAltTextAndTheRestStays() {
        let body = "<b>Ada</b> sent <img src=\"/tmp/cat.png\" alt=\"a cat\"/> and <a href=\"https://x\">a link</a>"
        #expect(PangoMarkup.from(body) == "<b>Ada</b> sent a cat and <a href=\"https://x\">a link</a>")
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
