import ChimeGLib

/// Makes a notification body safe to render: `<b> <i> <u> <a href> <img src alt>` stay,
/// `<br>` becomes a line break, every other tag is shown as text, and a body that does
/// not parse is shown as plain text. Parsing is GLib's GMarkup, not pattern matching.
public struct MarkupSanitizer {
    /// Decides whether an `<img src>` may stay; otherwise its alt text is shown.
    public var acceptsImage: (String) -> Bool

    public init(acceptsImage: @escaping (String) -> Bool) {
        self.acceptsImage = acceptsImage
    }

    public func sanitize(_ body: String) -> String {
        // Plain text is most bodies: a byte scan, not a walk over grapheme clusters.
        if !body.containsByte(UInt8(ascii: "<"), or: UInt8(ascii: "&")) { return body }
        var output = ""
        var closers: [String] = []
        var depth = 0
        var parser = MarkupParser()
        parser.startElement = { name, attributes in
            depth += 1
            guard depth > 1 else { return }  // the wrapper added below
            let attribute = { (key: String) in attributes.first { $0.name == key }?.value }
            switch name {
            case "b", "i", "u":
                output += "<\(name)>"
                closers.append("</\(name)>")
            case "a" where attribute("href") != nil:
                output += "<a href=\"\(MarkupParser.escape(attribute("href")!))\">"
                closers.append("</a>")
            case "img":
                let src = attribute("src") ?? ""
                let alt = attribute("alt") ?? ""
                if !src.isEmpty, acceptsImage(src) {
                    output += "<img src=\"\(MarkupParser.escape(src))\" alt=\"\(MarkupParser.escape(alt))\"/>"
                } else {
                    output += MarkupParser.escape(alt)
                }
                closers.append("")
            case "br":
                output += "\n"
                closers.append("")
            default:
                let shown = ([name] + attributes.map { "\($0.name)=\"\($0.value)\"" }).joined(separator: " ")
                output += MarkupParser.escape("<\(shown)>")
                closers.append(MarkupParser.escape("</\(name)>"))
            }
        }
        parser.endElement = { _ in
            depth -= 1
            if depth > 0, let closer = closers.popLast() { output += closer }
        }
        parser.text = { output += MarkupParser.escape($0) }
        if parser.parse("<markup>" + body + "</markup>") != nil {
            return MarkupParser.escape(body)
        }
        return output
    }
}
