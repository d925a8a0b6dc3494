import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimeStore
import CShims
import Glibc

/// The center's durability: what chimed's events change goes to the store (`NotificationStore`)
/// before the replies that wait for it, in one transaction a turn; retention prunes in short
/// batches; at start, what a stopped chimed held is put back.
extension Daemon {
    static let pruneEveryRows = 1_000

    /// Opens the center on disk and puts back what it held; when it cannot be opened chimed runs
    /// on without history. False when another chimed holds the file.
    func openStore() -> Bool {
        do {
            let store = try NotificationStore(path: storePath) { key, message in
                Log.warningOnce(key: "store-" + key, message)
            }
            store.keptChanged = { problem in
                guard problem == nil else { return }  // the failure itself was said as it happened
                Log.info("history is kept again: the center has every notification chimed answered")
                Log.forgetSaid(prefix: "store-")
            }
            // Past every id given: stored, or reserved (of a notification the center never kept).
            let mark = IDMark(path: AppStateStore.stateFolder(environment: environment) + "/ids")
            attention.server.ids = IDCounter(after: max(store.highestID(), mark.read()), reserving: true)
            idMark = mark
            self.store = store
            resumeCenter(from: store)
        } catch where error.isLocked {
            Log.info("\(error); stop it first, or give this chimed its own XDG_STATE_HOME")
            return false
        } catch {
            Log.warning("cannot open the notification store: \(error); running without history")
        }
        return true
    }

    /// At a turn's end, before its replies: commits what the turn changed. When the center could
    /// not keep it (a full disk), the calls that made notifications are refused instead, and what
    /// they made leaves the screen and the center: no app holds an id the center lost.
    func commitTurn() {
        defer { notifiedThisTurn.removeAll(keepingCapacity: true) }
        guard let store, !store.commit(), !notifiedThisTurn.isEmpty else { return }
        let error = BusError(BusError.ioError, store.notKept ?? "the notification center could not keep it")
        for (call, _) in notifiedThisTurn { objects.turn.refuse(call, error) }
        // Not recorded: the center never held them.
        unsettled += attention.refuse(notifiedThisTurn.map(\.id))
        needsSettling = true
        settle()
    }

    /// Keeps the center on disk in step, as each notification's decision says (`inCenter`).
    func record(_ event: ServerEvent, wall: Int64) {
        mayReleaseAttachments(event)
        guard let store else { return }
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
            idMark?.write(mark)
        case .focusChanged, .appStateChanged:
            // Kept across restarts (a Focus turned on or off by hand is too): saved with this
            // turn's commit, once however many changes it brought.
            appStateUnsaved = true
        case .retired, .playSound, .runHook, .ruleTurnedOff, .overRateLimit:
            break
        }
    }

    /// After a restart: what was held or snoozed is held again, unread counts are as they were,
    /// and docks hear every badge.
    func resumeCenter(from store: NotificationStore) {
        var released = attention.resume(store.held().map(decoder.rechecked), now: now)
        for critical in store.closeLeftOpen(wall: now.wall) {
            released += attention.presentAgain(decoder.rechecked(critical), now: now, sound: false)
        }
        for (id, app) in store.unread() { attention.unread.markUnread(id, app: app) }
        attention.nowPlayingIDs = store.nowPlaying()
        badges.announceAll(attention.unread.takeChanged())
        apply(released)
    }

    /// NotificationClosed, reason 1, for notifications retired past the open limit, and the center
    /// marks them closed; one put back meanwhile (restored from the center) is open again.
    func closeRetired(_ ids: [UInt32]) {
        let wall = LocalClock.wallMilliseconds()
        inOneTransaction {
            for id in ids where attention.server.notification(id) == nil {
                emitNotifications("NotificationClosed", [.uint32(id), .uint32(CloseReason.expired.rawValue)])
                store?.recordClosed(id, reason: .expired, wall: wall)
            }
        }
    }

    /// The store writes `writes` makes, in one transaction. During a bus turn it commits at the
    /// turn's end (`beforeSending`, `afterSending`); from a timer or an idle callback, now.
    func inOneTransaction(_ writes: () -> Void) {
        store?.holdCommits()
        writes()
        if !objects.inTurn {
            store?.commit()
            housekeepIfDue()  // a turn's end does it for the turn
        }
    }

    /// Retention: deletes old entries in short batches, each in its own main-loop turn, so
    /// pruning thousands never holds the bus for long. At start, on reload, in housekeeping
    /// (`housekeepSoon`), and after each thousand rows a flood brings (`batch` as many as it
    /// brought): waiting for housekeeping, the table grew by seconds of a flood, and the file
    /// kept that size. Says whether it deleted any.
    @discardableResult
    func prune(batch: Int = 500) -> Bool {
        guard let store else { return false }
        rowsSincePrune = 0
        let center = attention.settings.center
        let deleted = store.prune(maximumEntries: center.maximumEntries,
                                  cutoff: LocalClock.wallMilliseconds() - center.maximumAgeSeconds * 1_000, limit: batch)
        for id in deleted { attention.unread.markRead(id) }
        if !deleted.isEmpty, attachments.mayHaveFiles { sweepAttachmentsSoon() }
        badges.mayHaveChanged(attention.unread.takeChanged())
        if deleted.count == batch {
            GLibSources.idle(priority: GLibSources.lowPriority) { [unowned self] in
                prune()
                return false
            }
        }
        housekeepIfDue()  // to checkpoint what it deleted
        return !deleted.isEmpty
    }
}
