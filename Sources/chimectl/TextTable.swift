import ChimeCore
import CGLib
import Glibc

/// A listing as chimectl prints it without `--json`, one row a line. To a terminal it comes
/// under a header with its columns lined up, for a person to read ("true true" alone says
/// nothing); to a pipe or a file it stays tab-separated with no header, which is what scripts
/// read (`cut -f`), as `ps` and `systemctl` do. The cells are already free of control characters.
struct TextTable {
    private let header: [String]
    private var rows: [[String]] = []

    /// An empty name leaves a column unnamed (one that says "(active)" or "(hidden)" itself).
    /// The header's names are translated (the rows are data).
    init(_ header: String...) { self.header = Self.trimmed(header.map { $0.isEmpty ? $0 : tr($0) }) }

    /// A row may be shorter than the header (an optional last column left out); empty cells at
    /// its end are not printed.
    mutating func add(_ cells: [String]) { rows.append(Self.trimmed(cells)) }

    private static func trimmed(_ cells: [String]) -> [String] {
        var cells = cells
        while cells.last?.isEmpty == true { cells.removeLast() }
        return cells
    }

    func print() {
        Swift.print(text(forTerminal: isatty(STDOUT_FILENO) == 1), terminator: "")
    }

    /// Says that a listing is empty: to a person at a terminal; to a pipe nothing, so
    /// `chimectl list | wc -l` counts notifications and completion offers no "no notifications"
    /// as an id (the words go to stderr instead).
    static func printEmpty(_ message: String) {
        if isatty(STDOUT_FILENO) == 1 {
            Swift.print(message)
        } else {
            var line = message + "\n"
            line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    func text(forTerminal: Bool) -> String {
        guard forTerminal else { return rows.map { $0.joined(separator: "\t") + "\n" }.joined() }
        let lines = [header] + rows
        let columns = lines.map(\.count).max() ?? 0
        // Every column but the last is padded to its widest cell; two spaces between columns.
        let widths = (0..<columns).map { column in
            lines.map { column < $0.count ? Self.width($0[column]) : 0 }.max() ?? 0
        }
        return lines.map { cells in
            var line = ""
            for (column, cell) in cells.enumerated() {
                line += cell
                if column < cells.count - 1 { line += String(repeating: " ", count: widths[column] - Self.width(cell) + 2) }
            }
            return line + "\n"
        }.joined()
    }

    /// The columns a terminal gives `text`: two for wide (CJK) characters and emoji, none for
    /// combining marks, by GLib's Unicode tables (which, unlike `wcwidth`, need no locale).
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            let character = gunichar(scalar.value)
            return sum + (g_unichar_iszerowidth(character) != 0 ? 0 : g_unichar_iswide(character) != 0 ? 2 : 1)
        }
    }
}
