/// Fitting a label's text to a number of lines. GTK limits a label's lines per paragraph (Pango's
/// negative layout height), and each line break of the text starts a paragraph: a body of sixty
/// lines drew a banner taller than the screen. A line separator (U+2028) breaks the line but
/// keeps the paragraph, so the limit holds for the whole text.
public enum LineLimit {
    /// The text as one paragraph of at most `lines` lines: each run of line breaks (\n, \r,
    /// U+2028, U+2029) is one line separator, and the text ends at the last line that fits, with
    /// "…" after it when more followed (lines stay lines: what followed is never run into the last
    /// one). Tags open at the cut are closed, so the markup stays whole.
    public static func oneParagraph(_ text: String, lines: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var separators = 0
        var afterBreak = false
        var openTags: [String] = []
        var tag: String?
        for scalar in text.unicodeScalars {
            if var inTag = tag {
                inTag.unicodeScalars.append(scalar)
                scalars.append(scalar)
                tag = scalar == ">" ? nil : inTag
                if scalar == ">" { follow(inTag, in: &openTags) }
                continue
            }
            guard ["\n", "\r", "\u{2028}", "\u{2029}"].contains(scalar) else {
                if afterBreak {
                    separators += 1
                    guard separators < lines else {
                        return String(scalars) + "…" + openTags.reversed().map { "</\($0)>" }.joined()
                    }
                    scalars.append("\u{2028}")
                    afterBreak = false
                }
                scalars.append(scalar)
                if scalar == "<" { tag = "<" }
                continue
            }
            // Breaks at the start go; a run of them counts once, when text follows it.
            afterBreak = !scalars.isEmpty
        }
        return String(scalars)
    }

    /// Keeps the stack of open tags: `<b>` opens, `</b>` closes, `<img …/>` does neither.
    private static func follow(_ tag: String, in open: inout [String]) {
        if tag.hasPrefix("</") {
            if !open.isEmpty { open.removeLast() }
        } else if !tag.hasSuffix("/>") {
            let name = tag.dropFirst().prefix { $0 != " " && $0 != ">" }
            open.append(String(name))
        }
    }
}
