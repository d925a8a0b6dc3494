import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimeStore
import CShims
import Glibc

/// The center's durability, as the daemon drives it (`CenterDisk` keeps it): opened at start
/// with what a stopped chimed held put back, each turn's events written and committed before its
/// replies, retention in short batches.
extension Daemon {
    /// Opens the center on disk and puts back what it held; when it cannot be opened chimed runs
    /// on without history. False when another chimed holds the file.
    func openStore() -> Bool {
        do {
            let disk = try CenterDisk(folder: AppStateStore.stateFolder(environment: environment)) { key, message in
                Log.warningOnce(key: "store-" + key, message)
            }
            disk.store.keptChanged = { problem in
                guard problem == nil else { return }  // the failure itself was said as it happened
                Log.info("history is kept again: the center has every notification chimed answered")
                Log.forgetSaid(prefix: "store-")
            }
            attention.server.ids = IDCounter(after: disk.highestIDGiven, reserving: true)
            center = disk
            resumeCenter(from: disk.store)
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
        guard let (broken, why) = center?.commitTurn(), !broken.isEmpty else { return }
        for (call, _) in broken { objects.turn.refuse(call, BusError(BusError.ioError, why)) }
        // Not recorded: the center never held them. Nor do they make a sound or run a hook.
        effects.add(attention.refuse(broken.map(\.id)))
        effects.drop(madeBy: Set(broken.map(\.id)))
    }

    /// Keeps the center on disk in step with `event`.
    func record(_ event: ServerEvent, wall: Int64) {
        mayReleaseAttachments(event)
        // Kept across restarts (a Focus turned on or off by hand is too): saved with this turn's
        // commit, once however many changes it brought.
        switch event {
        case .focusChanged, .appStateChanged: appStateUnsaved = true
        default: break
        }
        center?.record(event, wall: wall)
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
                signals.emitNotifications("NotificationClosed", [.uint32(id), .uint32(CloseReason.expired.rawValue)])
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
        guard let center else { return false }
        let deleted = center.prune(attention.settings.center, wall: LocalClock.wallMilliseconds(), batch: batch)
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
