import CDBus
import CShims
import ChimeCore
import ChimeGLib

/// A private connection to the session bus. chimectl uses the blocking calls; chime-presenter
/// attaches it to the GLib main loop; chimed serves it from a bus thread of its own
/// (`attachToBusThread`), which reads, answers what it can at once, and hands the rest over.
///
/// `@unchecked Sendable`: libdbus is thread-safe, and what this class keeps is touched by one
/// thread only: `waiting` and `early` by the bus thread, the rest by the main thread.
public final class BusConnection: @unchecked Sendable {
    let raw: OpaquePointer
    private var glue: MainLoopGlue?
    private var busThread: BusThread?
    private var inbox: Inbox?
    private var early: (@Sendable (Message) -> EarlyAnswer?)?
    private var handler: ((Message) -> Bool)?
    private var turnEnded: () -> Void = {}
    /// On the main loop, messages wait here and are handled a sender at a time in turn.
    private var waiting: FairQueue?
    /// Messages read ahead at most: enough to see past a flood, bounded in memory.
    private static let readAhead = 4_096

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
    }

    deinit {
        busThread?.stop()
        glue?.detach()
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    public var uniqueName: String { String(cString: dbus_bus_get_unique_name(raw)) }

    /// Serves this connection from the GLib main loop; every incoming message goes to
    /// `handler`, which returns whether it handled it (libdbus answers unhandled calls).
    /// Incoming messages are read ahead and handled fairly: one from each sender in turn, so
    /// a client that floods delays only itself.
    /// `turnEnded` runs after each turn's messages were handled (see `serveWaiting`).
    public func attachToMainLoop(handler: @escaping (Message) -> Bool, turnEnded: @escaping () -> Void = {}) {
        waiting = FairQueue()
        self.turnEnded = turnEnded
        setHandler(handler)
        glue = MainLoopGlue(connection: raw) { [unowned self] in serveWaiting() }
    }

    /// One turn of the main loop's work: read what the socket holds (bounded), then handle up to
    /// 64 messages in turn. True while there is more to do.
    private func serveWaiting() -> Bool {
        readAhead()
        var served = 0
        while served < 64, let message = waiting?.next() {
            serve(message)
            served += 1
        }
        if served > 0 { turnEnded() }
        return !(waiting?.isEmpty ?? true) || dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS
    }

    /// Serves this connection from a thread of its own. Each incoming message goes first to
    /// `early`, on that thread, which may answer a call at once; then, unless early refused it,
    /// to `handler` on the main loop with what early carried. Messages are read ahead and taken
    /// fairly, one from each sender in turn, as `attachToMainLoop` does.
    /// `turnEnded` runs on the main loop after each turn's messages were handled.
    public func attachToBusThread(early: @escaping @Sendable (Message) -> EarlyAnswer?,
                                  handler: @escaping (Arrival) -> Bool, turnEnded: @escaping () -> Void) {
        waiting = FairQueue()
        self.early = early
        self.turnEnded = turnEnded
        let inbox = Inbox()
        self.inbox = inbox
        // The filter queues every message in `waiting`; the handler it would call otherwise is unused.
        setHandler { _ in false }
        let thread = BusThread(connection: raw) { [unowned self] in handOver() }
        busThread = thread
        let serve = { [unowned self] (limit: Int) -> Bool in
            let (arrivals, more, wasFull) = inbox.take(upTo: limit)
            for arrival in arrivals where !handler(arrival) && !arrival.answered {
                refuseUnhandled(arrival.message)
            }
            if !arrivals.isEmpty { turnEnded() }
            if wasFull { thread.wake() }
            return more
        }
        serveInbox = serve
        inboxSource = GLibSources.readable(inbox.descriptor) {
            _ = serve(64)
            return true
        }
    }

    private var serveInbox: ((Int) -> Bool)?
    private var inboxSource: UInt32?

    /// Ends the bus thread, then hands what it passed on to the handler: calls it answered are
    /// handled, as their apps were told. Calls it had not taken yet stay unanswered.
    public func stopBusThread() {
        busThread?.stop()
        busThread = nil
        if let inboxSource { GLibSources.remove(inboxSource) }
        inboxSource = nil
        while serveInbox?(64) == true {}
        serveInbox = nil
    }

    /// On the main loop, for a call that came on another connection: first handles what this
    /// connection's bus thread has read by now, so a call sent after a Notify (a `chimectl list`
    /// after `notify-send`, a pipelined GetStatus) sees what the Notify made, as it would on one
    /// connection. Waits for the bus thread at most a few milliseconds.
    public func catchUp() {
        guard let busThread, let serveInbox else { return }
        busThread.catchUp(timeoutMilliseconds: 50)
        _ = serveInbox(Inbox.capacity)
    }

    /// Starts the bus thread `attachToBusThread` made: calls wait in the socket until then.
    public func startBusThread() { busThread?.start() }

    /// On the bus thread: reads ahead into the fair queue (bounded), then hands
    /// messages in turn to the main loop while it has room, answering early what can be.
    /// True while the queue is full: read no more until woken.
    private func handOver() -> Bool {
        guard let inbox else { return false }
        readAhead()
        while inbox.hasRoom, let message = waiting?.next() {
            let answer = message.kind == .methodCall ? early?(message) : nil
            if let reply = answer?.reply, message.expectsReply {
                switch reply {
                case .success(let values): send(message.reply(values))
                case .failure(let error): send(message.errorReply(error))
                }
            }
            if case .failure? = answer?.reply { continue }
            inbox.push(Arrival(message: message, carried: answer?.carried, answered: answer?.reply != nil))
        }
        return (waiting?.count ?? 0) >= Self.readAhead
    }

    /// Takes what the socket holds into the fair queue, bounded: up to 64 more reads while a
    /// backlog is there to be seen past.
    private func readAhead() {
        var reads = 0
        while (waiting?.count ?? 0) < Self.readAhead {
            // Dispatching only queues (the filter below); libdbus still answers Peer calls and
            // completes pending calls itself.
            while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS, (waiting?.count ?? 0) < Self.readAhead {}
            // A lone message needs no looking ahead: only a backlog can hide another sender's call.
            guard reads < 64, (waiting?.count ?? 0) > 1, dbus_connection_get_is_connected(raw) != 0 else { break }
            reads += 1
            dbus_connection_read_write(raw, 0)
            if dbus_connection_get_dispatch_status(raw) != DBUS_DISPATCH_DATA_REMAINS { break }
        }
    }

    /// Handles one waiting message; a call nobody handled gets libdbus's usual UnknownMethod error.
    private func serve(_ message: Message) {
        if handler?(message) != true { refuseUnhandled(message) }
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
        self.handler = handler
        dbus_connection_add_filter(raw, { _, message, data in
            let connection = Unmanaged<BusConnection>.fromOpaque(data!).takeUnretainedValue()
            if connection.waiting != nil {
                connection.waiting!.append(Message(borrowing: message!))
                return DBUS_HANDLER_RESULT_HANDLED
            }
            return connection.handler?(Message(borrowing: message!)) ?? false
                ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }
}
