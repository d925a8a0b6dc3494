import ChimeCore
import Synchronization

/// Where notification ids come from: one counter for the whole daemon, so an id the bus thread
/// gives out at once (an early answer) and one the main thread gives out never meet. Ids are
/// never given twice, across restarts too: the counter reserves them a block at a time, and
/// `keep` says where a reservation is kept (a restart continues past the last one).
/// A class, shared by every copy of the server that holds it, and the bus thread.
final class IDSequence: IDSource {
    private struct State: Sendable {
        var last: UInt32
        /// The highest id the last reservation covers.
        var reserved = UInt32.max
        var reserve: (@Sendable (UInt32) -> Void)?
    }

    private let state: Mutex<State>
    /// Ids reserved at once: one write of the mark for this many notifications.
    static let block: UInt32 = 1_000

    /// `after`: the highest id ever handed out, so ids continue past it.
    init(after last: UInt32 = 0) { state = Mutex(State(last: last)) }

    /// From now on each block of ids is reserved by `reserve(mark)` before an id of it is given
    /// out: it keeps `mark`, which a restart continues past.
    func keep(reservingWith reserve: @escaping @Sendable (UInt32) -> Void) {
        state.withLock { state in
            state.reserve = reserve
            state.reserved = state.last
        }
    }

    /// The next id, skipping 0 at the wrap and any id `taken` says is in use.
    func next(skipping taken: (UInt32) -> Bool = { _ in false }) -> UInt32 {
        state.withLock { state in
            repeat {
                state.last = state.last == UInt32.max ? 1 : state.last + 1
            } while taken(state.last)
            if state.last > state.reserved || state.last == 1, let reserve = state.reserve {
                state.reserved = state.last &+ Self.block < state.last ? UInt32.max : state.last + Self.block
                reserve(state.reserved)
            }
            return state.last
        }
    }

    /// The highest id handed out.
    var current: UInt32 {
        get { state.withLock { $0.last } }
        set { state.withLock { $0.last = newValue } }
    }
}
