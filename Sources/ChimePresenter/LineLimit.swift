/// Fitting a label's text to a number of lines. GTK limits a label's lines per paragraph (Pango's
/// negative layout height), and each line break of the text starts a paragraph: a body of sixty
/// lines drew a banner taller than the screen. A line separator (U+2028) breaks the line but
/// keeps the paragraph, so the limit holds for the whole text.
enum LineLimit {
    /// The text as one paragraph of at most `lines` lines: each run of line breaks (\n, \r,
    /// U+2028, U+2029) is one line separator, and past the last line a space, so what does not
    /// fit runs on in the last line up to its "…" rather than being glued together there.
    static func oneParagraph(_ text: String, lines: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var separators = 0
        var afterBreak = false
        for scalar in text.unicodeScalars {
            guard ["\n", "\r", "\u{2028}", "\u{2029}"].contains(scalar) else {
                if afterBreak {
                    separators += 1
                    scalars.append(separators < lines ? "\u{2028}" : " ")
                    afterBreak = false
                }
                scalars.append(scalar)
                continue
            }
            // Breaks at the start go; a run of them counts once, when text follows it.
            afterBreak = !scalars.isEmpty
        }
        return String(scalars)
    }
}
