import CGLib
import ChimeCore

/// The sanitised body markup (b, i, u, a href, img) as GtkLabel markup: labels draw b, i and u
/// but not images, so an image becomes its alt text (and the banner draws the first image under
/// the text, `imageSources`); a link is underlined text, opened from a button of its own (`links`).
public enum PangoMarkup {
    /// The `src` of each `<img>` in the body, in order, as GMarkup reads it (entities resolved).
    /// chimed keeps an image only for a file it checked, or an icon name.
    public static func imageSources(in body: String) -> [String] {
        guard body.firstByteRange(of: "<img") != nil else { return [] }
        var sources: [String] = []
        var parser = MarkupParser()
        parser.startElement = { name, attributes in
            if name == "img", let source = attributes.first(where: { $0.name == "src" })?.value, !source.isEmpty { sources.append(source) }
        }
        _ = parser.parse("<markup>" + body + "</markup>")
        return sources
    }

    /// The body's links, in order: each becomes a button of its own under the text (`Banner`),
    /// so a link can never cover the body, whose click is the default action.
    public static func links(in body: String) -> [(uri: String, text: String)] {
        guard body.firstByteRange(of: "<a ") != nil else { return [] }
        var links: [(String, String)] = []
        var open: String?
        var text = ""
        var parser = MarkupParser()
        parser.startElement = { name, attributes in
            if name == "a", let href = attributes.first(where: { $0.name == "href" })?.value { (open, text) = (href, "") }
        }
        parser.text = { if open != nil { text += $0 } }
        parser.endElement = { name in
            if name == "a", let uri = open { links.append((uri, text)) }
            if name == "a" { open = nil }
        }
        _ = parser.parse("<markup>" + body + "</markup>")
        return links
    }

    // Compiled once; GRegex is safe to share for matching.
    nonisolated(unsafe) private static let imageWithAlt = g_regex_new("<img[^>]*\\balt=\"([^\"]*)\"[^>]*>", G_REGEX_CASELESS, GRegexMatchFlags(0), nil)
    nonisolated(unsafe) private static let image = g_regex_new("<img[^>]*>", G_REGEX_CASELESS, GRegexMatchFlags(0), nil)

    nonisolated(unsafe) private static let linkStart = g_regex_new("<a [^>]*>", G_REGEX_CASELESS, GRegexMatchFlags(0), nil)
    nonisolated(unsafe) private static let linkEnd = g_regex_new("</a>", G_REGEX_CASELESS, GRegexMatchFlags(0), nil)

    /// Links are drawn underlined, as text the click on the body passes through.
    public static func from(_ body: String) -> String {
        guard body.firstByteRange(of: "<img") != nil || body.firstByteRange(of: "<a ") != nil else { return body }
        var text = body
        for (regex, replacement) in [(imageWithAlt, "\\1"), (image, ""), (linkStart, "<u>"), (linkEnd, "</u>")] {
            guard let regex, let replaced = g_regex_replace(regex, text, -1, 0, replacement, GRegexMatchFlags(0), nil) else { continue }
            text = String(cString: replaced)
            g_free(replaced)
        }
        return text
    }
}
