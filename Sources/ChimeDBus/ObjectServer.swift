import ChimeCore

/// A method call after its signature was checked against the interface's XML. Its arguments
/// are decoded when first asked for: a handler may read the message itself instead.
public final class MethodCall {
    public let message: Message
    public let sender: String
    public private(set) lazy var arguments: [BusValue] = message.arguments

    init(message: Message, sender: String) {
        self.message = message
        self.sender = sender
    }
}

/// An interface as exported: its XML declaration and one handler per method.
public struct ExportedInterface {
    public typealias Handler = (MethodCall) throws(BusError) -> [BusValue]

    public let spec: InterfaceSpec
    public let handlers: [String: Handler]
    /// Read-only properties: name -> current value.
    public let properties: [String: () -> BusValue]
    /// The methods that read file descriptors passed with them; a call of any other comes with
    /// none (`BusConnection.takesDescriptors`).
    public let takesDescriptors: Set<String>

    /// Every method and property the XML declares must have a handler, and nothing undeclared may.
    public init(spec: InterfaceSpec, handlers: [String: Handler],
                properties: [String: () -> BusValue] = [:], takesDescriptors: Set<String> = []) {
        precondition(Set(spec.methods.keys) == Set(handlers.keys),
                     "\(spec.name): handlers \(handlers.keys.sorted()) differ from the XML's methods \(spec.methods.keys.sorted())")
        precondition(Set(spec.properties.keys) == Set(properties.keys), "\(spec.name): properties differ from the XML")
        self.spec = spec
        self.handlers = handlers
        self.properties = properties
        self.takesDescriptors = takesDescriptors
    }
}

/// Routes method calls to exported interfaces, answers Introspect from the XML,
/// and emits signals. The bus connection hands over messages in turns of up to 64; what a turn's
/// handlers send is held by the `Turn` every server of the process shares (see there).
public final class ObjectServer {
    private let connection: BusConnection
    private var objects: [String: [ExportedInterface]] = [:]
    private var signalWatchers: [(Message) -> Void] = []
    public let turn: Turn

    /// Serves `connection` from the main loop, in turns shared with every server given `turn`.
    public init(connection: BusConnection, turn: Turn = Turn()) {
        self.connection = connection
        self.turn = turn
        connection.attachToMainLoop(handler: { [unowned self] message in
            turn.willHandle()
            return handle(message)
        }, turnEnded: { [turn] in turn.end() })
    }

    /// True while a turn's messages are handled, on this server or another sharing its turn.
    public var inTurn: Bool { turn.inTurn }

    private func send(_ message: Message) {
        turn.send(message, on: connection)
    }

    public func export(_ interface: ExportedInterface, at path: String) {
        objects[path, default: []].append(interface)
        for member in interface.takesDescriptors {
            connection.takeDescriptors(interface: interface.spec.name, member: member)
        }
    }

    /// Calls `watcher` with every signal that reaches this connection (add a match first).
    public func watchSignals(_ watcher: @escaping (Message) -> Void) {
        signalWatchers.append(watcher)
    }

    public func emit(path: String, interface: InterfaceSpec, signal: String, _ arguments: [BusValue],
                     to destination: String? = nil) {
        assert(interface.signals[signal]?.inSignature == arguments.map(\.signature).joined(),
               "\(signal) does not match its XML declaration")
        let message = Message.signal(path: path, interface: interface.name, name: signal,
                                     arguments: arguments, destination: destination)
        send(message)
    }

    private func handle(_ message: Message) -> Bool {
        switch message.kind {
        case .signal:
            for watcher in signalWatchers { watcher(message) }
            return false
        case .methodCall:
            return handleCall(message)
        default:
            return false
        }
    }

    private func handleCall(_ message: Message) -> Bool {
        guard let path = message.path, let member = message.member else { return false }
        let interfaceName = message.interface
        if interfaceName == "org.freedesktop.DBus.Introspectable" || (interfaceName == nil && member == "Introspect") {
            guard member == "Introspect" else { return false }
            answer(message, .success([.string(introspection(of: path))]))
            return true
        }
        if interfaceName == Self.propertiesInterface {
            answer(message, properties(member, message, at: path))
            return true
        }
        guard let route = route(path, interfaceName, member) else { return false }
        let signature = message.signature
        guard signature == route.inSignature else {
            answer(message, .failure(.invalidArgs(
                "\(member) takes arguments (\(route.inSignature)), got (\(signature))")))
            return true
        }
        call(route.handler, message)
        return true
    }

    private func call(_ handler: ExportedInterface.Handler, _ message: Message) {
        // The reply goes first: signals the handler raised wait behind it.
        let mark = turn.mark
        let call = MethodCall(message: message, sender: message.sender ?? "")
        var result = Result { () throws(BusError) in try handler(call) }
        // Listings are paged and records bounded, so this never happens; if it did, the bus
        // would drop this connection for a message over its limits, and every client with it.
        if case .success(let values) = result, values.reduce(0, { $0 + $1.wireSizeBound }) > BusValue.maximumArrayBytes {
            result = .failure(BusError("org.freedesktop.DBus.Error.LimitsExceeded",
                                       "the reply to \(message.member ?? "") would be over D-Bus's size limits"))
        }
        answer(message, result, at: mark)
    }

    /// A method's handler and the arguments it takes.
    private struct Route {
        let inSignature: String
        let handler: ExportedInterface.Handler
    }

    private func route(_ path: String, _ interfaceName: String?, _ member: String) -> Route? {
        guard let interface = objects[path]?.first(where: {
            $0.spec.methods[member] != nil && (interfaceName == nil || interfaceName == $0.spec.name)
        }), let spec = interface.spec.methods[member], let handler = interface.handlers[member] else {
            return nil
        }
        return Route(inSignature: spec.inSignature, handler: handler)
    }

    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// org.freedesktop.DBus.Properties for the exported interfaces: Get and GetAll; all are read-only.
    private func properties(_ member: String, _ message: Message, at path: String) -> Result<[BusValue], BusError> {
        let arguments = message.arguments
        guard case .string(let name)? = arguments.first,
              let interface = objects[path]?.first(where: { $0.spec.name == name }) else {
            return .failure(.invalidArgs("no such interface at \(path)"))
        }
        switch (member, message.signature) {
        case ("Get", "ss"):
            guard case .string(let property) = arguments[1], let getter = interface.properties[property] else {
                return .failure(.invalidArgs("no property \(arguments[1]) on \(name)"))
            }
            return .success([.variant(getter())])
        case ("GetAll", "s"):
            return .success([.vardict(interface.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value()) })])
        case ("Set", "ssv"):
            return .failure(BusError("org.freedesktop.DBus.Error.PropertyReadOnly", "the properties of \(name) are read-only"))
        default:
            return .failure(.invalidArgs("\(member)(\(message.signature)) is not a Properties method"))
        }
    }

    /// Announces new property values with PropertiesChanged.
    public func emitPropertiesChanged(path: String, interface: InterfaceSpec, _ changed: [(String, BusValue)]) {
        let message = Message.signal(path: path, interface: Self.propertiesInterface, name: "PropertiesChanged",
                                     arguments: [.string(interface.name), .vardict(changed), .stringArray([])])
        send(message)
    }

    /// Queues the reply at `position` in the outbox (ahead of the signals its handler raised).
    private func answer(_ call: Message, _ result: Result<[BusValue], BusError>, at position: Int? = nil) {
        guard call.expectsReply else { return }
        let reply: Message
        switch result {
        case .success(let values): reply = call.reply(values)
        case .failure(let error): reply = call.errorReply(error)
        }
        turn.send(reply, on: connection, at: position, answering: call)
    }

    /// The interfaces at `path` from their XML, plus the child nodes below it.
    func introspection(of path: String) -> String {
        var xml = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>

        """
        if let interfaces = objects[path] {
            xml += """
              <interface name="org.freedesktop.DBus.Introspectable">
                <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
              </interface>
              <interface name="org.freedesktop.DBus.Peer">
                <method name="Ping"/>
                <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
              </interface>

            """
            if interfaces.contains(where: { !$0.properties.isEmpty }) {
                xml += """
                  <interface name="org.freedesktop.DBus.Properties">
                    <method name="Get"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
                    <method name="GetAll"><arg name="interface_name" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
                    <method name="Set"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
                    <signal name="PropertiesChanged"><arg name="interface_name" type="s"/><arg name="changed_properties" type="a{sv}"/><arg name="invalidated_properties" type="as"/></signal>
                  </interface>

                """
            }
            for interface in interfaces { xml += interface.spec.xml }
        }
        let prefix = path == "/" ? "/" : path + "/"
        let children = Set(objects.keys.filter { $0.hasPrefix(prefix) }.compactMap {
            $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        })
        for child in children.sorted() { xml += "  <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }
}
