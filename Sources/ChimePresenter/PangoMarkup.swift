import CGtk
import ChimeGLib

/// The sanitised body markup (b, i, u, a href, img) as GtkLabel markup: labels draw b, i, u
/// and links but not images, so an image becomes its alt text (and the banner draws the first
/// image under the text, `imageSources`).
enum PangoMarkup {
    /// The `src` of each `<img>` in the body, in order, as GMarkup reads it (entities resolved).
    /// chimed keeps an image only for a file it checked, or an icon name.
    static func imageSources(in body: String) -> [String] {
        guard body.firstByteRange(of: "<img") != nil else { return [] }
        var sources: [String] = []
        var parser = MarkupParser()
        parser.startElement = { name, attributes in
            if name == "img", let source = attributes.first(where: { $0.name == "src" })?.value, !source.isEmpty { sources.append(source) }
        }
        _ = parser.parse("<markup>" + body + "</markup>")
        return sources
    }

    // Compiled once; GRegex is safe to share for matching.
    nonisolated(unsafe) private static let imageWithAlt = g_regex_new("<img[^>]*\\balt=\"([^\"]*)\"[^>]*>", G_REGEX_CASELESS, GRegexMatchFlags(0), nil)
    nonisolated(unsafe) private static let image = g_regex_new("<img[^>]*>", G_REGEX_CASELESS, GRegexMatchFlags(0), nil)

    static func from(_ body: String) -> String {
        guard body.firstByteRange(of: "<img") != nil else { return body }
        var text = body
        for (regex, replacement) in [(imageWithAlt, "\\1"), (image, "")] {
            guard let regex, let replaced = g_regex_replace(regex, text, -1, 0, replacement, GRegexMatchFlags(0), nil) else { continue }
            text = String(cString: replaced)
            g_free(replaced)
        }
        return text
    }
}
