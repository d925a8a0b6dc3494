import ChimeGLib

/// A connection served from a thread of its own (chimed's notification service): the bus
/// thread reads ahead into a backlog, gives each call to `early`, which reads it (and refuses
/// a malformed one there), and hands the rest to the main loop through a bounded inbox, where
/// `handler` takes it with what early read and answers it.
///
/// `@unchecked Sendable`: the backlog and `early` are touched by the bus thread only, the rest
/// by the main thread; the inbox between them is thread-safe.
final class BusThreadServing: @unchecked Sendable {
    let backlog: Backlog
    private let early: @Sendable (Message) -> EarlyReading?
    private let handler: (Arrival) -> Bool
    private let turnEnded: () -> Void
    private let send: (Message) -> Void
    private let refuse: (Message) -> Void
    private let inbox = Inbox()
    private var thread: BusThread?
    private var inboxSource: UInt32?

    init(connection: OpaquePointer, early: @escaping @Sendable (Message) -> EarlyReading?, handler: @escaping (Arrival) -> Bool,
         turnEnded: @escaping () -> Void, send: @escaping (Message) -> Void, refuse: @escaping (Message) -> Void) {
        backlog = Backlog(connection: connection)
        (self.early, self.handler, self.turnEnded, self.send, self.refuse) = (early, handler, turnEnded, send, refuse)
        thread = BusThread(connection: connection) { [unowned self] in handOver() }
        inboxSource = GLibSources.readable(inbox.descriptor) { [unowned self] in
            _ = serveInbox(upTo: 64)
            return true
        }
    }

    /// Calls wait in the socket until then.
    func start() { thread?.start() }

    /// Ends the bus thread, then hands what it passed on to the handler. Calls it had not taken
    /// yet stay unanswered.
    func stop() {
        end()
        while serveInbox(upTo: 64) {}
    }

    /// Ends the bus thread and no longer serves the inbox: what waits there is dropped.
    func end() {
        thread?.stop()
        thread = nil
        if let inboxSource { GLibSources.remove(inboxSource) }
        inboxSource = nil
    }

    /// On the main loop: handles what the bus thread has read by now, waiting for it a few
    /// milliseconds at most (`BusConnection.catchUp`).
    func catchUp() {
        guard let thread else { return }
        thread.catchUp(timeoutMilliseconds: 50)
        _ = serveInbox(upTo: Inbox.capacity)
    }

    /// On the main loop: up to `limit` arrivals to the handler; true while more wait.
    private func serveInbox(upTo limit: Int) -> Bool {
        let (arrivals, more, wasFull) = inbox.take(upTo: limit)
        for arrival in arrivals where !handler(arrival) { refuse(arrival.message) }
        if !arrivals.isEmpty { turnEnded() }
        if wasFull { thread?.wake() }
        return more
    }

    /// On the bus thread: reads ahead into the backlog (bounded), then hands messages in turn to
    /// the main loop while it has room, each with what its early part read. True while the
    /// backlog is full: read no more until woken.
    private func handOver() -> Bool {
        backlog.readAhead()
        while inbox.hasRoom, let message = backlog.next() {
            var carried: (any Sendable)?
            switch message.kind == .methodCall ? early(message) : nil {
            case .refused(let error)?:
                if message.expectsReply { send(message.errorReply(error)) }
                continue
            case .read(let value)?:
                carried = value
            case nil:
                break
            }
            inbox.push(Arrival(message: message, carried: carried))
        }
        return backlog.isFull
    }
}
