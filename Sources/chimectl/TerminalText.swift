/// Text from notifications as chimectl prints it for people: any app can send any characters,
/// and a summary with an escape sequence in it would otherwise reach the terminal as a command
/// (to retitle the window, redraw the screen, or worse), and a tab or line break in an app name
/// would shift the columns scripts cut. `--json` prints every character, escaped.
enum TerminalText {
    /// For one column of a tab-separated line: tabs and line breaks become spaces, and other
    /// control characters (C0, DEL, C1) the replacement character.
    static func field(_ text: String) -> String { cleaned(text, keepingLineBreaks: false) }

    /// For a value that may take several lines (`show`): line breaks stay.
    static func lines(_ text: String) -> String { cleaned(text, keepingLineBreaks: true) }

    private static func cleaned(_ text: String, keepingLineBreaks: Bool) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepingLineBreaks: scalars.append(scalar)
            case "\t", "\n", "\r": scalars.append(" ")
            case _ where isControl(scalar): scalars.append("\u{FFFD}")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
