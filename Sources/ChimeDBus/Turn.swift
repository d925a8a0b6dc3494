/// One turn of handling calls, shared by every object server of a process (chimed serves the
/// notification service and the control interface on two connections). What any handler sends
/// during a turn, on either connection, is held until the turn ends and `beforeSending` ran, so
/// one store commit covers the turn and a client learns what its call changed only once it is
/// on disk, and its notification id before it sees it presented. Main thread only.
public final class Turn {
    /// True while a turn's messages are handled: what is sent meanwhile waits.
    public private(set) var inTurn = false
    private var held: [(connection: BusConnection, message: Message)] = []
    /// Runs before each message is handled (chimed settles the last call's effects here).
    public var beforeHandling: () -> Void = {}
    /// Runs when a turn ends, before its replies go out (chimed commits the store here).
    public var beforeSending: () -> Void = {}
    /// Runs when a turn's replies and signals have gone (chimed moves the intake into SQLite here).
    public var afterSending: () -> Void = {}

    public init() {}

    func willHandle() {
        inTurn = true
        beforeHandling()
    }

    func end() {
        guard inTurn else { return }
        beforeSending()
        inTurn = false
        for (connection, message) in held { connection.send(message) }
        held.removeAll(keepingCapacity: held.count < 1_024)
        afterSending()
    }

    /// Where the next message held would go: a reply is put there, ahead of the signals its
    /// handler raised.
    var mark: Int { held.count }

    func send(_ message: Message, on connection: BusConnection, at position: Int? = nil) {
        guard inTurn else { return connection.send(message) }
        if let position { held.insert((connection, message), at: position) } else { held.append((connection, message)) }
    }
}
