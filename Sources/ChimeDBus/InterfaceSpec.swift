import ChimeGLib

/// One interface as its introspection XML in dbus/ declares it. Chime checks every
/// incoming call against this, so the XML is the single declaration of the interface.
public struct InterfaceSpec: Sendable {
    public struct Member: Sendable {
        public var name: String
        public var inSignature: String
        public var outSignature: String
    }

    public var name: String
    public var methods: [String: Member] = [:]
    public var signals: [String: Member] = [:]
    /// Property name -> type signature.
    public var properties: [String: String] = [:]
    /// The `<interface>` element as it appears in the file, for Introspect replies.
    public var xml: String

    /// The interfaces declared in the embedded dbus/ file `fileName`.
    public static func load(_ fileName: String) -> [InterfaceSpec] {
        guard let text = EmbeddedInterfaces.files[fileName] else {
            preconditionFailure("dbus/\(fileName) was not embedded at build time")
        }
        switch parse(text) {
        case .success(let specs): return specs
        case .failure(let error): preconditionFailure("dbus/\(fileName): \(error)")
        }
    }

    public static func parse(_ text: String) -> Result<[InterfaceSpec], BusError> {
        var specs: [InterfaceSpec] = []
        var member: (isSignal: Bool, spec: Member)?
        var parser = MarkupParser()
        parser.startElement = { element, attributes in
            let attribute = { (key: String) in attributes.first { $0.name == key }?.value ?? "" }
            switch element {
            case "interface":
                specs.append(InterfaceSpec(name: attribute("name"), xml: ""))
            case "method", "signal":
                member = (element == "signal", Member(name: attribute("name"), inSignature: "", outSignature: ""))
            case "property" where !specs.isEmpty:
                specs[specs.count - 1].properties[attribute("name")] = attribute("type")
            case "arg":
                if attribute("direction") == "out" {
                    member?.spec.outSignature += attribute("type")
                } else {
                    member?.spec.inSignature += attribute("type")
                }
            default: break
            }
        }
        parser.endElement = { element in
            guard element == "method" || element == "signal", let done = member, !specs.isEmpty else { return }
            if done.isSignal {
                specs[specs.count - 1].signals[done.spec.name] = done.spec
            } else {
                specs[specs.count - 1].methods[done.spec.name] = done.spec
            }
            member = nil
        }
        if let error = parser.parse(text) { return .failure(.invalidArgs(error)) }
        for index in specs.indices {
            specs[index].xml = interfaceElement(named: specs[index].name, in: text)
        }
        return .success(specs)
    }

    /// The text of `<interface name="NAME"> ... </interface>`, comments and all.
    private static func interfaceElement(named name: String, in text: String) -> String {
        guard let start = text.firstByteRange(of: "<interface name=\"\(name)\">"),
              let end = text[start.upperBound...].firstByteRange(of: "</interface>")
        else { return "" }
        return "  " + String(text[start.lowerBound..<end.upperBound]) + "\n"
    }
}
