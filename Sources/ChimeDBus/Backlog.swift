import CDBus

/// Messages a connection has read and not served yet, taken a sender at a time in turn
/// (`FairQueue`), and read ahead of need, within bounds, so one client's flood is seen past.
/// Touched by the one thread that serves the connection.
final class Backlog {
    private let connection: OpaquePointer
    private var queue = FairQueue()
    /// Messages read ahead at most: enough to see past a flood, bounded in memory.
    static let limit = 4_096

    init(connection: OpaquePointer) { self.connection = connection }

    /// From the connection's filter, as libdbus dispatches.
    func append(_ message: Message) { queue.append(message) }
    func next() -> Message? { queue.next() }
    /// How many calls with descriptors `sender` has waiting here.
    func descriptorCalls(from sender: String) -> Int { queue.descriptorCalls(from: sender) }
    var isEmpty: Bool { queue.isEmpty }
    var isFull: Bool { queue.count >= Self.limit }
    /// More than the socket's buffer handed over: libdbus has messages still to dispatch.
    var dataRemains: Bool { dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS }

    /// Takes what the socket holds into the queue, bounded: up to 64 more reads while a backlog
    /// is there to be seen past.
    func readAhead() {
        var reads = 0
        while !isFull {
            // Dispatching only queues (the connection's filter); libdbus still answers Peer calls
            // and completes pending calls itself.
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS, !isFull {}
            // A lone message needs no looking ahead: only a backlog can hide another sender's call.
            guard reads < 64, queue.count > 1, dbus_connection_get_is_connected(connection) != 0 else { break }
            reads += 1
            dbus_connection_read_write(connection, 0)
            if !dataRemains { break }
        }
    }
}
