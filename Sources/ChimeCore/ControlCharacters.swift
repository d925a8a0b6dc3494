extension String {
    /// The text with no control characters (C0, DEL, C1), for a terminal or a log line: any app
    /// can send any characters, and an escape sequence in a summary printed as it came would be
    /// a command to the terminal (retitle the window, clear the screen), a line break in an app
    /// name would forge a log line, and a tab would shift the columns scripts cut. Tabs and line
    /// breaks become spaces (line breaks stay with `keepingLineBreaks`); the rest U+FFFD. The
    /// bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) go too: one
    /// reverses what the terminal shows after it ("exe.txt" shown as "txt.exe"), columns and
    /// text that follow included.
    public func withoutControlCharacters(keepingLineBreaks: Bool = false) -> String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "\n" where keepingLineBreaks: scalars.append(scalar)
            case "\t", "\n", "\r": scalars.append(" ")
            case _ where Self.isControl(scalar): scalars.append("\u{FFFD}")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
