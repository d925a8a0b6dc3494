import CGLib

/// GLib's GMarkup parser with Swift closures: the one XML-subset parser Chime uses,
/// for notification bodies and for the introspection files in dbus/.
public struct MarkupParser {
    public var startElement: (_ name: String, _ attributes: [(name: String, value: String)]) -> Void = { _, _ in }
    public var endElement: (_ name: String) -> Void = { _ in }
    public var text: (_ text: String) -> Void = { _ in }

    public init() {}

    /// Parses the whole document; on malformed input returns GLib's message (with line and column).
    public func parse(_ document: String) -> String? {
        let box = Unmanaged.passRetained(CallbackBox(self))
        defer { box.release() }
        var vtable = GMarkupParser(
            start_element: { _, name, names, values, data, _ in
                let parser = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().parser
                var attributes: [(name: String, value: String)] = []
                var index = 0
                while let namePointer = names?[index], let valuePointer = values?[index] {
                    attributes.append((String(cString: namePointer), String(cString: valuePointer)))
                    index += 1
                }
                parser.startElement(String(cString: name!), attributes)
            },
            end_element: { _, name, data, _ in
                Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().parser.endElement(String(cString: name!))
            },
            text: { _, text, length, data, _ in
                let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
                Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue().parser
                    .text(String(decoding: bytes, as: UTF8.self))
            },
            passthrough: nil,
            error: nil)
        return withUnsafePointer(to: &vtable) { table -> String? in
            let context = g_markup_parse_context_new(table, G_MARKUP_TREAT_CDATA_AS_TEXT, box.toOpaque(), nil)
            defer { g_markup_parse_context_free(context) }
            var error: UnsafeMutablePointer<GError>?
            let utf8 = Array(document.utf8)
            let ok = utf8.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    g_markup_parse_context_parse(context, $0.baseAddress, gssize($0.count), &error) != 0
                }
            } && g_markup_parse_context_end_parse(context, &error) != 0
            if ok { return nil }
            defer { g_error_free(error) }
            return error.map { String(cString: $0.pointee.message) } ?? "malformed markup"
        }
    }

    /// Escapes text for markup with GLib's own rules.
    public static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}

private final class CallbackBox {
    let parser: MarkupParser
    init(_ parser: MarkupParser) { self.parser = parser }
}
