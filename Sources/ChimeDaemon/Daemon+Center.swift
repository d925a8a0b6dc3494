import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimeStore
import CShims
import Glibc

/// The center's durability: what chimed's events change goes to the store (`NotificationStore`)
/// before the replies that wait for it, in one transaction a turn; the intake's rows reach SQLite
/// in batches; retention prunes in short batches; at start, what a killed chimed left is put back.
extension Daemon {
    static let intakeCommitRows = 256
    static let intakeCommitDelay: UInt32 = 250
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
            let journal = CallJournal(path: storePath + "-calls")
            let unsettled = journal?.unsettled() ?? []
            // Past every id given: stored, answered early, or reserved (of a notification the
            // center never kept).
            let mark = IDMark(path: AppStateStore.stateFolder(environment: environment) + "/ids")
            ids.current = max(store.highestID(), unsettled.map(\.id).max() ?? 0, mark.read())
            ids.keep { mark.write($0) }
            idMark = mark
            self.store = store
            resumeCenter(from: store)
            handleAgain(unsettled, store: store)
            journal?.clear()
            self.journal = journal
            earlyNotify.keep(in: journal)
            if journal == nil { Log.warning("cannot open \(storePath)-calls; Notify is answered once the center has it") }
        } catch where error.isLocked {
            Log.info("\(error); stop it first, or give this chimed its own XDG_STATE_HOME")
            return false
        } catch {
            Log.warning("cannot open the notification store: \(error); running without history")
        }
        return true
    }

    /// At start: the calls an earlier chimed answered and stopped before the center had them
    /// (killed), made into notifications now, under the ids their apps were given.
    func handleAgain(_ calls: [CallJournal.Call], store: NotificationStore) {
        var handled = 0
        for call in calls where !store.contains(call.id) {
            guard let message = Message(marshalled: call.bytes), var request = try? decoder.decode(message) else { continue }
            // The model and the center both take the time the call came, not the restart's.
            var now = now
            now.wall = call.wall
            // Only KDE's files come this way (a call naming Chime's is never answered early), and
            // one gone since is dropped.
            try? keepAttachments(of: &request, system: nil, wall: call.wall)
            guard let (_, events) = try? attention.notify(request, from: call.sender, now: now, id: call.id) else { continue }
            apply(events, wall: call.wall)
            handled += 1
        }
        store.commit()
        if handled > 0 { Log.info("put \(handled) notification(s) into the center that chimed had answered before it stopped") }
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

    /// Moves the rows recorded into SQLite a quarter of a second after the first, or at once past
    /// 256: none of SQLite's work follows a lone reply. Committing after each reply cost a
    /// sequence of calls from a quiet machine a third more time a call (measured; see git log):
    /// chimed was still writing when the next call came. Batched, each commit also rewrites each
    /// page it touched once for many rows (the table's last, partial one, the header page, the
    /// log's position). The intake log has the rows meanwhile; whatever reads the store applies
    /// them first (`NotificationStore.database`), and a close of one still there follows it into
    /// the intake (`recordClosed`).
    func commitIntakeSoon() {
        guard let store, store.uncommittedRows > 0 else { return }
        if store.uncommittedRows >= Self.intakeCommitRows { return store.commit() }
        guard !intakeCommitScheduled else { return }
        intakeCommitScheduled = true
        _ = GLibSources.timeout(milliseconds: Self.intakeCommitDelay) { [unowned self] in
            intakeCommitScheduled = false
            self.store?.commit()
            return false
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
