import Synchronization

/// The Notify calls chimed answered before it handled them (its bus thread answers most at once),
/// kept until what they made is in the center's intake: a `kill -9` in between loses none, as a
/// notification the center wrote before its reply is not lost (`IntakeLog`).
///
/// A log of its own beside the store (`chime.db-calls`), written the same way. A record is a call
/// kept (its id, sender, arrival time and the call's bytes) or a mark that every call up to a
/// sequence number was handled and is durable: the main thread handles calls in the order they
/// were kept, so what follows the last mark is what a restart must handle again (`unsettled`).
/// Emptied when everything in it was settled, now and then (`tidy`), not after every call: an
/// empty log allocates its first step again.
public final class CallJournal: Sendable {
    public struct Call: Sendable {
        public let sequence: Int64
        public let id: UInt32
        public let sender: String
        public let wall: Int64
        public let bytes: [UInt8]
    }

    private struct State {
        var log: IntakeLog
        /// The sequence number of the last call kept, and the last one settled.
        var kept: Int64 = 0
        var settled: Int64 = 0
        /// Records in the log, marks included.
        var records = 0
    }

    private let state: Mutex<State>
    /// Past this many records, or this many bytes, a settled log is emptied at the next `tidy`.
    static let tidyRecords = 1_024
    static let tidyBytes = 1 << 20

    /// Nil when the file cannot be opened: then no call is answered before it is handled.
    public init?(path: String) {
        guard let log = IntakeLog(path: path) else { return nil }
        let last = log.records().last?.sequence ?? 0
        state = Mutex(State(log: log, kept: last, settled: last))
    }

    /// On the bus thread, before the call is answered: keeps it, in the page cache. Its sequence
    /// number, or nil when it could not be written (a full disk): then the call waits for the
    /// main thread, which answers once the center has it.
    public func keep(id: UInt32, sender: String, wall: Int64, bytes: [UInt8]) -> Int64? {
        state.withLock { state in
            let sequence = state.kept + 1
            state.log.append([.integer(Int64(id)), .text(sender), .integer(wall), .blob(bytes)], sequence: sequence)
            guard state.log.flush() else { return nil }
            state.kept = sequence
            state.records += 1
            return sequence
        }
    }

    /// On the main thread, once the calls up to `sequence` were handled and the center's intake
    /// log holds what they made.
    public func settle(through sequence: Int64) {
        state.withLock { state in
            guard sequence > state.settled else { return }
            state.log.append([.integer(-1)], sequence: sequence)
            // A mark that could not be written only makes a restart handle some calls again;
            // the center already holding their ids, it skips them.
            if state.log.flush() { state.records += 1 }
            state.settled = sequence
        }
    }

    /// After the replies: empties the log when every call in it was settled and it has grown
    /// (which allocates its first step again), else makes room ahead for the next calls.
    public func tidy() {
        state.withLock { state in
            if state.settled == state.kept, state.records >= Self.tidyRecords || state.log.size >= Self.tidyBytes {
                state.log.clear()
                state.records = 0
            } else {
                state.log.makeRoomAhead()
            }
        }
    }

    /// At start: the calls kept after the last mark, oldest first.
    public func unsettled() -> [Call] {
        state.withLock { state in
            var calls: [Call] = []
            for record in state.log.records() {
                switch record.values.first {
                case .integer(-1)?:
                    calls.removeAll { $0.sequence <= record.sequence }
                case .integer(let id)? where record.values.count == 4:
                    guard case .text(let sender) = record.values[1], case .integer(let wall) = record.values[2],
                          case .blob(let bytes) = record.values[3] else { continue }
                    calls.append(Call(sequence: record.sequence, id: UInt32(truncatingIfNeeded: id), sender: sender,
                                      wall: wall, bytes: bytes))
                default:
                    continue
                }
            }
            return calls
        }
    }

    /// At start, once the calls `unsettled` gave were handled again, and at a clean exit, once
    /// every call answered was handled and the center committed.
    public func clear() {
        state.withLock { state in
            state.log.clear()
            state.records = 0
            state.settled = state.kept
        }
    }
}
