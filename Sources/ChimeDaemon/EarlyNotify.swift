import ChimeCore
import ChimeDBus
import ChimeStore
import Synchronization

/// Notify's early part, on the bus thread. A Notify that can only make a new notification is
/// decoded there, given its id and answered at once; the main thread then does the rest (the
/// attention model, the center, banners, sound) without the app waiting for it.
///
/// A call is answered early only when its reply cannot depend on what the main thread holds:
/// it replaces nothing (no replaces_id, no stack tag), repeats no text the repeat detector
/// remembers or another call on its way carries (`RepeatGate`), and the config does not refuse
/// apps over their rate limit. Any other Notify is decoded here too, and answered by the main
/// thread as before. Either way the main handler gets the decoded request (`Passed`).
final class EarlyNotify: Sendable {
    /// A Notify the bus thread decoded: its request, its texts' key, and the id it was answered
    /// with, if it was.
    struct Passed: Sendable {
        let request: NotificationRequest
        let key: RepeatDetector.Key
        let id: UInt32?
        /// Where the call journal keeps it until the center has it (`CallJournal.settle`).
        let journaled: Int64?
    }

    private let decoder: NotifyDecoder
    private let ids: IDSequence
    private let gate: RepeatGate
    private let refusesOverLimit = Atomic(false)
    /// Where a call answered early is kept until the center has it; none without history.
    private let journal = Mutex<CallJournal?>(nil)

    init(decoder: NotifyDecoder, ids: IDSequence, gate: RepeatGate) {
        (self.decoder, self.ids, self.gate) = (decoder, ids, gate)
    }

    /// Set from the config (main thread): over its rate limit an app is refused, so no Notify
    /// may be answered before the rate limit was counted.
    func follow(_ settings: ChimeSettings) {
        refusesOverLimit.store(settings.center.rateLimit.action == .refuse, ordering: .relaxed)
    }

    /// Set once the store is open, before the bus thread starts.
    func keep(in journal: CallJournal?) {
        self.journal.withLock { $0 = journal }
    }

    func answer(_ message: Message) -> EarlyAnswer {
        do throws(RequestError) {
            let request = try decoder.decode(message)
            let key = RepeatDetector.Key(request)
            let mayRepeat = gate.passOn(key)
            guard !mayRepeat, request.replacesID == 0, request.hints.stackTag?.isEmpty ?? true,
                  !refusesOverLimit.load(ordering: .relaxed) else {
                return EarlyAnswer(carried: Passed(request: request, key: key, id: nil, journaled: nil))
            }
            // Not checked against the open notifications, as the main thread's ids are: an id
            // comes round again only after four billion notifications.
            let id = ids.next()
            var journaled: Int64?
            if let journal = journal.withLock({ $0 }) {
                journaled = journal.keep(id: id, sender: message.sender ?? "", wall: LocalClock.wallMilliseconds(),
                                         bytes: message.marshalled())
                // Not kept (a full disk): the main thread answers once the center has it, with this id.
                guard journaled != nil else { return EarlyAnswer(carried: Passed(request: request, key: key, id: id, journaled: nil)) }
            }
            return EarlyAnswer(reply: .success([.uint32(id)]), carried: Passed(request: request, key: key, id: id, journaled: journaled))
        } catch {
            return EarlyAnswer(reply: .failure(BusError(error)))
        }
    }
}
