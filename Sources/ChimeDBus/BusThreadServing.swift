import ChimeGLib

/// A connection served from a thread of its own (chimed's notification service): the bus
/// thread reads ahead into a backlog, gives each call to `early`, which may answer it at once,
/// and hands what early did not refuse to the main loop through a bounded inbox, where
/// `handler` takes it with what early carried.
///
/// `@unchecked Sendable`: the backlog and `early` are touched by the bus thread only, the rest
/// by the main thread; the inbox between them is thread-safe.
final class BusThreadServing: @unchecked Sendable {
    let backlog: Backlog
    private let early: @Sendable (Message) -> EarlyAnswer?
    private let handler: (Arrival) -> Bool
    private let turnEnded: () -> Void
    private let send: (Message) -> Void
    private let refuse: (Message) -> Void
    private let inbox = Inbox()
    private var thread: BusThread?
    private var inboxSource: UInt32?

    init(connection: OpaquePointer, early: @escaping @Sendable (Message) -> EarlyAnswer?, handler: @escaping (Arrival) -> Bool,
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

    /// Ends the bus thread, then hands what it passed on to the handler: calls it answered are
    /// handled, as their apps were told. Calls it had not taken yet stay unanswered.
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
        for arrival in arrivals where !handler(arrival) && !arrival.answered { refuse(arrival.message) }
        if !arrivals.isEmpty { turnEnded() }
        if wasFull { thread?.wake() }
        return more
    }

    /// On the bus thread: reads ahead into the backlog (bounded), then hands messages in turn to
    /// the main loop while it has room, answering early what can be. True while the backlog is
    /// full: read no more until woken.
    private func handOver() -> Bool {
        backlog.readAhead()
        while inbox.hasRoom, let message = backlog.next() {
            let answer = message.kind == .methodCall ? early(message) : nil
            if let reply = answer?.reply, message.expectsReply {
                switch reply {
                case .success(let values): send(message.reply(values))
                case .failure(let error): send(message.errorReply(error))
                }
            }
            if case .failure? = answer?.reply { continue }
            inbox.push(Arrival(message: message, carried: answer?.carried, answered: answer?.reply != nil))
        }
        return backlog.isFull
    }
}
