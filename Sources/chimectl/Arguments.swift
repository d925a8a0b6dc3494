import ChimeCore
/// The words after the subcommand, consumed as they are understood.
struct Arguments {
    private var words: [String]

    init(_ words: [String]) { self.words = words }

    /// Removes `name` wherever it stands; true if it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// The value after `name`, removing both; nil when `name` is absent.
    mutating func option(_ name: String) throws(CommandLineError) -> String? {
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count else { throw .usage(tr("{name} needs a value", ["name": name])) }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        return value
    }

    /// The words before "--" and those after it.
    func splitAtDoubleDash() -> (before: [String], after: [String]) {
        guard let index = words.firstIndex(of: "--") else { return (words, []) }
        return (Array(words[..<index]), Array(words[(index + 1)...]))
    }

    var isEmpty: Bool { words.isEmpty }

    mutating func next() -> String? {
        words.isEmpty ? nil : words.removeFirst()
    }

    mutating func id() throws(CommandLineError) -> UInt32 {
        guard let word = next() else { throw .usage(tr("a notification ID is needed")) }
        guard let id = UInt32(word), id > 0 else { throw .usage(tr("'{word}' is not a notification ID", ["word": word])) }
        return id
    }

    /// Fails on anything left over, so typos are not silently ignored.
    func done() throws(CommandLineError) {
        if let extra = words.first { throw .usage(tr("unexpected argument '{extra}'", ["extra": extra])) }
    }
}
