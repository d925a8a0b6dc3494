import ChimeCore
import ChimeDBus
import ChimeStore

/// The center on disk, chimed's one durable path: the events of a turn go to the store's open
/// transaction as they come (`record`), and the turn's end commits them before its replies go
/// (`commitTurn`), so an id an app receives names a notification the center has. Ids are
/// reserved past a mark kept beside it, so a restart gives none again.
final class CenterDisk {
    let store: NotificationStore
    private let idMark: IDMark
    /// This turn's calls that made a notification, and its id: answered with it only if the
    /// turn's commit keeps it.
    private var promised: [(call: Message, id: UInt32)] = []
    /// Rows taken since the last prune; past `pruneEveryRows` a flood prunes as it goes.
    private(set) var rowsSincePrune = 0
    static let pruneEveryRows = 1_000

    /// Opens the store in `folder` (a damaged one is moved aside); throws when it cannot be
    /// opened, or another chimed holds it.
    init(folder: String, report: @escaping (_ key: String, _ message: String) -> Void) throws(StoreError) {
        store = try NotificationStore(path: folder + "/chime.db", report: report)
        idMark = IDMark(path: folder + "/ids")
    }

    /// Past every id given: stored, or reserved (of a notification the center never kept).
    var highestIDGiven: UInt32 { max(store.highestID(), idMark.read()) }

    /// Writes what `event` changed, as its notification's decision says (`inCenter`).
    func record(_ event: ServerEvent, wall: Int64) {
        switch event {
        case .presented(let notification), .updated(let notification, _), .stored(let notification), .withdrawn(let notification),
             .snoozed(let notification):
            if notification.decision?.inCenter != false {
                store.record(notification, wall: wall)
                rowsSincePrune += 1
            }
        case .closed(let notification, let reason):
            store.recordClosed(notification.id, reason: reason, wall: wall)
        case .read(let id, let dismissed):
            store.markRead(id, dismissed: dismissed, wall: wall)
        case .deleted(let id):
            store.delete(id)
        case .merged(let notification, _):
            store.delete(notification.id)
        case .actionInvoked(let notification, _), .replied(let notification, _):
            store.markRead(notification.id, dismissed: false, wall: wall)
        case .idsReserved(let mark):
            idMark.write(mark)
        case .retired, .playSound, .runHook, .ruleTurnedOff, .overRateLimit, .focusChanged, .appStateChanged:
            break
        }
    }

    /// `call` is to be answered with `id`, a notification this turn made.
    func promise(_ call: Message, id: UInt32) {
        promised.append((call, id))
    }

    /// At a turn's end, before its replies: commits what it changed. The promises it could not
    /// keep (a full disk), and why; none when it kept them.
    func commitTurn() -> (broken: [(call: Message, id: UInt32)], why: String) {
        defer { promised.removeAll(keepingCapacity: true) }
        guard !store.commit() else { return ([], "") }
        return (promised, store.notKept ?? "the notification center could not keep it")
    }

    /// Deletes up to `batch` entries past the center's limits (`prune`), never one held.
    func prune(_ settings: CenterSettings, wall: Int64, batch: Int) -> [UInt32] {
        rowsSincePrune = 0
        return store.prune(maximumEntries: settings.maximumEntries, cutoff: wall - settings.maximumAgeSeconds * 1_000, limit: batch)
    }

    /// At a clean exit: the next chimed goes on from the last id given, not past the block.
    func close(lastID: UInt32) {
        idMark.write(lastID)
        store.checkpoint()
    }
}
