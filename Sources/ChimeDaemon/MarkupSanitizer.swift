import ChimeCore
import ChimeGLib

/// Makes a notification body safe to render: `<b> <i> <u> <a href> <img src alt>` stay (a link
/// only to http, https or mailto: `LinkScheme`),
/// `<br>` becomes a line break, every other tag is removed and its text kept (as dunst and
/// mako do), and a body that does not parse is shown as plain text. Parsing is GLib's GMarkup, not pattern matching; an '&' or
/// '<' that cannot begin markup is escaped first (`escapingStrays`).
public struct MarkupSanitizer: Sendable {
    /// The `src` an `<img>` keeps (a file URI becomes its checked path, so presenters read
    /// paths and icon names only), or nil when it may not stay and its alt text is shown.
    public var image: @Sendable (String) -> String?

    public init(image: @escaping @Sendable (String) -> String?) {
        self.image = image
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
            case "a" where attribute("href").map { LinkScheme.isOpenable($0) } == true:
                output += "<a href=\"\(MarkupParser.escape(attribute("href")!))\">"
                closers.append("</a>")
            case "a":
                closers.append("")  // a link the desktop must not open: its text stays, as text
            case "img":
                let src = attribute("src") ?? ""
                let alt = attribute("alt") ?? ""
                if !src.isEmpty, let kept = image(src) {
                    output += "<img src=\"\(MarkupParser.escape(kept))\" alt=\"\(MarkupParser.escape(alt))\"/>"
                } else {
                    output += MarkupParser.escape(alt)
                }
                closers.append("")
            case "br":
                output += "\n"
                closers.append("")
            default:
                closers.append("")  // removed, its text kept, as dunst and mako show it
            }
        }
        parser.endElement = { _ in
            depth -= 1
            if depth > 0, let closer = closers.popLast() { output += closer }
        }
        parser.text = { output += MarkupParser.escape($0) }
        if parser.parse("<markup>" + Self.escapingStrays(body) + "</markup>") != nil {
            return MarkupParser.escape(body)
        }
        return output
    }

    /// The body with each '&' that begins no entity GMarkup knows ("Tom & Jerry", "&nbsp;") and
    /// each '<' that begins no tag ("I <3 you", "5 < 6") escaped, so one such character leaves
    /// the rest of the markup standing instead of turning the whole body to plain text (GNOME
    /// Shell does the same before it parses a body).
    /// HTML's `<br>`, which apps send as often as `<br/>` and which XML would leave unclosed
    /// (the whole body then shown as text), is closed here too.
    static func escapingStrays(_ body: String) -> String {
        let bytes = Array(body.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&") where !startsEntity(bytes[(index + 1)...]):
                output += "&amp;".utf8
            case UInt8(ascii: "<") where !startsTag(bytes[(index + 1)...]):
                output += "&lt;".utf8
            case UInt8(ascii: "<"):
                if let length = htmlLineBreak(bytes[index...]) {
                    output += "<br/>".utf8
                    index += length
                    continue
                }
                output.append(byte)
            default:
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The length of an unclosed `<br>` (any case, spaces before the '>') at the start of `text`.
    private static func htmlLineBreak(_ text: ArraySlice<UInt8>) -> Int? {
        var rest = text.dropFirst()
        guard rest.count >= 3, rest.first! | 0x20 == UInt8(ascii: "b"), rest.dropFirst().first! | 0x20 == UInt8(ascii: "r") else {
            return nil
        }
        rest = rest.dropFirst(2).drop { $0 == UInt8(ascii: " ") }
        guard rest.first == UInt8(ascii: ">") else { return nil }
        return rest.startIndex + 1 - text.startIndex
    }

    /// Whether what follows an '&' is one of XML's five entities or a character reference.
    private static func startsEntity(_ rest: ArraySlice<UInt8>) -> Bool {
        guard let end = rest.prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return false }
        let name = rest[rest.startIndex..<end]
        if ["amp", "lt", "gt", "quot", "apos"].contains(where: { name.elementsEqual($0.utf8) }) { return true }
        guard name.first == UInt8(ascii: "#"), name.count > 1 else { return false }
        let digits = name.dropFirst()
        if digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X") {
            return digits.count > 1 && digits.dropFirst().allSatisfy { isHexDigit($0) }
        }
        return digits.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Whether what follows a '<' can begin a tag, an end tag, a comment or an instruction.
    private static func startsTag(_ rest: ArraySlice<UInt8>) -> Bool {
        guard let next = rest.first else { return false }
        return (0x61...0x7A).contains(next | 0x20)  // an ASCII letter, either case
            || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}
