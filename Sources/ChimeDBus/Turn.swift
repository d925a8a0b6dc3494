/// One turn of handling calls, shared by every object server of a process (chimed serves the
/// notification service and the control interface on two connections). What any handler sends
/// during a turn, on either connection, is held until the turn ends and `beforeSending` ran, so
/// one store commit covers the turn and a client learns what its call changed only once it is
/// on disk, and its notification id before it sees it presented; a reply whose promise the
/// commit could not keep is turned into an error then (`refuse`). Main thread only.
public final class Turn {
    /// True while a turn's messages are handled: what is sent meanwhile waits.
    public private(set) var inTurn = false
    private var held: [(connection: BusConnection, message: Message, answering: Message?)] = []
    /// Runs before each message is handled (chimed settles the last call's effects here).
    public var beforeHandling: () -> Void = {}
    /// Runs when a turn ends, before its replies go out (chimed commits the store here, and
    /// refuses the calls it could not keep).
    public var beforeSending: () -> Void = {}
    /// Runs when a turn's replies and signals have gone (chimed settles the turn's effects here).
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
        for (connection, message, _) in held { connection.send(message) }
        held.removeAll(keepingCapacity: held.count < 1_024)
        afterSending()
    }

    /// Where the next message held would go: a reply is put there, ahead of the signals its
    /// handler raised.
    var mark: Int { held.count }

    /// `answering`: the call a reply answers, so `refuse` can find it.
    func send(_ message: Message, on connection: BusConnection, at position: Int? = nil, answering call: Message? = nil) {
        guard inTurn else { return connection.send(message) }
        let entry = (connection, message, call)
        if let position { held.insert(entry, at: position) } else { held.append(entry) }
    }

    /// Before the turn's replies go: `call` is answered with `error` instead of what its
    /// handler returned.
    public func refuse(_ call: Message, _ error: BusError) {
        guard let index = held.firstIndex(where: { $0.answering === call }) else { return }
        held[index].message = call.errorReply(error)
    }
}
