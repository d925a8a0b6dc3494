import ChimeCore
import ChimeDBus
import ChimeStore
import Synchronization

/// Notify's early part, on the bus thread. Every Notify is read there into its one value
/// (`NotifyDecoder.read`); one that can only make a new notification is given its id, kept in
/// the call journal and answered at once. The main thread then does the rest (the files and
/// markup it names, the attention model, the center, banners, sound) from that value, without
/// the app waiting for it.
///
/// A call is answered early only when its reply cannot depend on what the main thread holds:
/// it replaces nothing (no replaces_id, no stack tag; a repeat of another's texts is a new
/// notification of its own), the config does not refuse apps over their rate limit, and it is
/// small enough to keep in the journal (`largestJournaled`). Any other Notify is answered by
/// the main thread.
final class EarlyNotify: Sendable {
    /// What the bus thread made of a Notify: its texts' key, and the id it was answered with,
    /// if it was.
    struct Passed: Sendable {
        /// The call as read here: the main thread finishes it (`NotifyDecoder.finish`).
        let read: NotifyDecoder.Read
        let texts: RepeatDetector.Key
        let id: UInt32?
        /// Where the call journal keeps it until the center has it (`CallJournal.settle`).
        let journaled: Int64?
        /// When it came (unix ms): what the notification keeps as its arrival, though the main
        /// thread may handle it a little later.
        let wall: Int64
        /// Who sent it, as the system says: asked here, while the sender is sure to be on the bus.
        let identity: SenderIdentity?
    }

    private let ids: IDSequence
    private let decoder = NotifyDecoder()
    /// Asked before any reply goes, while the sender is sure to be on the bus.
    private let identities: SenderIdentities
    private let refusesOverLimit = Atomic(false)
    /// Where a call answered early is kept until the center has it; none without history.
    private let journal = Mutex<CallJournal?>(nil)

    init(ids: IDSequence, identities: SenderIdentities) {
        (self.ids, self.identities) = (ids, identities)
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

    /// A call larger than this is answered by the main thread once the center has it, not kept
    /// in the call journal: what the journal holds, and a restart reads back, stays small.
    static let largestJournaled = 256 << 10

    func answer(_ message: Message) -> EarlyAnswer {
        let wall = LocalClock.wallMilliseconds()
        let identity = identities.identity(of: message.sender)
        let journal = journal.withLock { $0 }
        let reader = ArgumentReader(message)
        let read: NotifyDecoder.Read
        do throws(RequestError) {
            read = try decoder.read(reader)
        } catch {
            return EarlyAnswer(reply: .failure(BusError(error)))
        }
        let request = read.request
        let texts = RepeatDetector.Key(request)
        // What it replaces (replaces_id, a stack tag) the main thread finds; a file of Chime's
        // attachment hint that cannot be kept refuses the call, which only the main thread,
        // which checks it, may then answer.
        let replaces = request.replacesID != 0 || request.hints.stackTag != nil
        let checksFiles = request.hints.attachmentRequests.contains(where: \.required)
        guard !replaces, !checksFiles, !refusesOverLimit.load(ordering: .relaxed), read.bytes <= Self.largestJournaled else {
            return EarlyAnswer(carried: Passed(read: read, texts: texts, id: nil, journaled: nil, wall: wall, identity: identity))
        }
        // Not checked against the open notifications, as the main thread's ids are: an id
        // comes round again only after four billion notifications.
        let id = ids.next()
        let journaled = journal?.keep(id: id, sender: message.sender ?? "", wall: wall, bytes: Array(reader.messageBytes))
        // A call the journal could not keep (a full disk) is answered, with this id, by the main
        // thread once the center has it; without history there is nothing to keep.
        let answered = journal == nil || journaled != nil
        return EarlyAnswer(reply: answered ? .success([.uint32(id)]) : nil,
                           carried: Passed(read: read, texts: texts, id: id, journaled: journaled, wall: wall, identity: identity))
    }
}
