import CDBus
import CShims
import ChimeCore
import ChimeGLib

/// A private connection to the session bus. chimectl uses the blocking calls; chimed and
/// chime-presenter attach it to the GLib main loop (`MainLoopServing`). One thread's.
public final class BusConnection {
    let raw: OpaquePointer

    /// How incoming messages are served, set once: none for blocking calls alone.
    private enum Serving {
        /// Each message to a handler as libdbus dispatches it (`readWriteDispatch`).
        case handler((Message) -> Bool)
        case mainLoop(MainLoopServing)
    }
    private var serving: Serving?

    /// Connects to `address`, or to DBUS_SESSION_BUS_ADDRESS (DBUS_SYSTEM_BUS_ADDRESS with
    /// `system`) when nil, and says hello.
    public init(address: String? = nil, system: Bool = false) throws(BusError) {
        var error = DBusError()
        dbus_error_init(&error)
        let connection: OpaquePointer?
        if let address {
            connection = dbus_connection_open_private(address, &error)
            if let connection, dbus_bus_register(connection, &error) == 0 {
                dbus_connection_close(connection)
                dbus_connection_unref(connection)
                throw BusError.take(&error) ?? BusError(BusError.failed, "cannot register on the bus")
            }
        } else {
            connection = dbus_bus_get_private(system ? DBUS_BUS_SYSTEM : DBUS_BUS_SESSION, &error)
        }
        guard let connection else {
            throw BusError.take(&error) ?? BusError(BusError.failed, "cannot connect to the session bus")
        }
        raw = connection
        // The owner decides what to do when the bus goes away; libdbus would call _exit.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        // Descriptors that came with messages still held: past this, libdbus reads no more until
        // some are let go, so the process never runs out of open files (which costs libdbus the
        // connection).
        dbus_connection_set_max_received_unix_fds(connection, Self.heldDescriptors)
    }

    static let heldDescriptors = 128
    /// Calls with descriptors one sender may have waiting, of the methods that take them.
    static let descriptorCallsPerSender = 8

    /// The methods (interface, member) that read descriptors passed with them.
    private var descriptorMethods: Set<String> = []

    /// Lets calls of `member` bring file descriptors (the portal's icons and sounds); a call of
    /// any other that brings some is refused as it arrives, and its descriptors closed.
    public func takeDescriptors(interface: String, member: String) {
        descriptorMethods.insert(interface + "." + member)
    }

    /// Why a message that brought descriptors is not taken: its method takes none, or its
    /// sender has enough such calls waiting. nil: it is taken. Runs as the message arrives.
    private func descriptorRefusal(_ message: Message, backlog: Backlog) -> BusError? {
        let method = (message.interface ?? "") + "." + (message.member ?? "")
        guard message.kind == .methodCall, descriptorMethods.contains(method) else {
            return .invalidArgs("\(message.member ?? "this message") takes no file descriptors")
        }
        guard backlog.descriptorCalls(from: message.sender ?? "") < Self.descriptorCallsPerSender else {
            return BusError(BusError.limitsExceeded,
                            "\(Self.descriptorCallsPerSender) calls with file descriptors wait already; wait for their answers")
        }
        return nil
    }

    deinit {
        switch serving {
        case .mainLoop(let loop)?: loop.detach()
        case .handler?, nil: break
        }
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    public var uniqueName: String { String(cString: dbus_bus_get_unique_name(raw)) }

    /// Serves this connection from the GLib main loop; every incoming message goes to
    /// `handler`, which returns whether it handled it (libdbus answers unhandled calls).
    /// Incoming messages are read ahead and handled fairly: one from each sender in turn, so
    /// a client that floods delays only itself.
    /// `turnEnded` runs after each turn's messages were handled.
    public func attachToMainLoop(handler: @escaping (Message) -> Bool, turnEnded: @escaping () -> Void = {}) {
        serve(.mainLoop(MainLoopServing(connection: raw, handler: handler, turnEnded: turnEnded,
                                        refuse: { [unowned self] in refuseUnhandled($0) })))
    }

    private func refuseUnhandled(_ message: Message) {
        guard message.kind == .methodCall, dbus_message_get_no_reply(message.raw) == 0 else { return }
        let text = "no method \(message.member ?? "") on interface \(message.interface ?? "(none)") at \(message.path ?? "")"
        send(message.errorReply(BusError("org.freedesktop.DBus.Error.UnknownMethod", text)))
    }

    public func send(_ message: Message) {
        dbus_connection_send(raw, message.raw, nil)
    }

    public func flush() { dbus_connection_flush(raw) }


    /// A blocking call; the reply's arguments, or its error.
    public func call(_ message: Message, timeoutMilliseconds: Int32 = 25_000) throws(BusError) -> [BusValue] {
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, timeoutMilliseconds, &error) else {
            throw BusError.take(&error) ?? BusError(BusError.noReply, "no reply")
        }
        return Message(owning: reply).arguments
    }

    public func addMatch(_ rule: String) throws(BusError) {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(raw, rule, &error)
        if let failure = BusError.take(&error) { throw failure }
    }

    public func removeMatch(_ rule: String) {
        dbus_bus_remove_match(raw, rule, nil)
    }

    // MARK: Names

    public enum NameRequest: Equatable {
        case primaryOwner
        case alreadyOwner
        /// Someone else holds it and would not let go.
        case exists
    }

    public func requestName(_ name: String, replace: Bool) throws(BusError) -> NameRequest {
        var flags = chime_name_flag_allow_replacement() | chime_name_flag_do_not_queue()
        if replace { flags |= chime_name_flag_replace_existing() }
        var error = DBusError()
        dbus_error_init(&error)
        let result = dbus_bus_request_name(raw, name, flags, &error)
        if let failure = BusError.take(&error) { throw failure }
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default: return .exists
        }
    }

    public func releaseName(_ name: String) {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_release_name(raw, name, &error)
        _ = BusError.take(&error)
    }

    /// Asks the bus daemon itself; used to name another owner and its process.
    public func busCall(_ method: String, _ arguments: [BusValue]) throws(BusError) -> [BusValue] {
        try call(.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                             interface: "org.freedesktop.DBus", method: method, arguments: arguments))
    }

    /// Reads and handles one message, waiting up to `timeoutMilliseconds` (-1 = forever);
    /// for clients that block on signals (chimectl watch). Returns false once disconnected.
    public func readWriteDispatch(timeoutMilliseconds: Int32) -> Bool {
        dbus_connection_read_write_dispatch(raw, timeoutMilliseconds) != 0
    }

    /// Sends every incoming message to `handler`, which returns whether it handled it;
    /// without a main loop, messages arrive from readWriteDispatch.
    public func setHandler(_ handler: @escaping (Message) -> Bool) {
        serve(.handler(handler))
    }

    /// Takes every incoming message as `serving` says: into a backlog to be served in turn, or
    /// straight to a handler.
    private func serve(_ serving: Serving) {
        precondition(self.serving == nil, "a connection is served one way")
        self.serving = serving
        dbus_connection_add_filter(raw, { _, message, data in
            let connection = Unmanaged<BusConnection>.fromOpaque(data!).takeUnretainedValue()
            switch connection.serving {
            case .mainLoop(let loop)?: connection.take(Message(borrowing: message!), into: loop.backlog)
            case .handler(let handler)?:
                return handler(Message(borrowing: message!)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            case nil: return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Queues a message to be served, unless it brought descriptors it may not: then it is
    /// refused at once, and letting it go closes them.
    private func take(_ message: Message, into backlog: Backlog) {
        if message.carriesDescriptors, let refusal = descriptorRefusal(message, backlog: backlog) {
            if message.expectsReply { send(message.errorReply(refusal)) }
            return
        }
        backlog.append(message)
    }
}
