import ChimeGLib

/// A connection served from the GLib main loop (chime-presenter, chimed's logind and control
/// connections): what it reads waits in a backlog and is handled in bounded turns, a sender at a
/// time, so a client that floods delays only itself.
final class MainLoopServing {
    let backlog: Backlog
    private let handler: (Message) -> Bool
    private let turnEnded: () -> Void
    /// Answers a call nobody handled.
    private let refuse: (Message) -> Void
    private var glue: MainLoopGlue?

    init(connection: OpaquePointer, handler: @escaping (Message) -> Bool, turnEnded: @escaping () -> Void,
         refuse: @escaping (Message) -> Void) {
        backlog = Backlog(connection: connection)
        (self.handler, self.turnEnded, self.refuse) = (handler, turnEnded, refuse)
        glue = MainLoopGlue(connection: connection) { [unowned self] in serveTurn() }
    }

    func detach() { glue?.detach() }

    /// One turn of the main loop's work: read what the socket holds (bounded), then handle up to
    /// 64 messages in turn, then `turnEnded`. True while there is more to do.
    private func serveTurn() -> Bool {
        backlog.readAhead()
        var served = 0
        while served < 64, let message = backlog.next() {
            if !handler(message) { refuse(message) }
            served += 1
        }
        if served > 0 { turnEnded() }
        return !backlog.isEmpty || backlog.dataRemains
    }
}
