import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimeStore
import CShims
import Glibc

/// The center and the core, joined: at start what a stopped chimed held is put back, and a
/// turn's commit that fails refuses the calls whose notifications it lost.
extension Daemon {
    /// Opens the center on disk and puts back what it held; when it cannot be opened chimed runs
    /// on without history. False when another chimed holds the file.
    func openStore() -> Bool {
        do {
            try center.open(folder: AppStateStore.stateFolder(environment: environment))
        } catch where error.isLocked {
            Log.info("\(error); stop it first, or give this chimed its own XDG_STATE_HOME")
            return false
        } catch {
            Log.warning("cannot open the notification store: \(error); running without history")
            return true
        }
        attention.server.ids = IDCounter(after: center.disk?.highestIDGiven ?? 0, reserving: true)
        if let store {
            resumeCenter(from: store)
            handleOlderCalls(store.olderCalls(), store: store)
        }
        return true
    }

    /// At start: the calls chimed 0.1.0 answered and stopped before it handled (killed), made into
    /// notifications now, under the ids their apps were given and at the time they came. Its log
    /// goes once the center has them.
    func handleOlderCalls(_ calls: [OlderCall], store: NotificationStore) {
        var handled = 0
        func dropped(_ call: OlderCall, _ why: String) {
            Log.warning("dropped notification \(call.id) from \(store.path)-calls, which chimed 0.1.0 had answered: \(why)")
        }
        for call in calls {
            guard let message = Message(marshalled: call.bytes), let read = try? decoder.read(message) else {
                dropped(call, "it is not a Notify call")
                continue
            }
            var now = now
            now.wall = call.wall
            do throws(RequestError) {
                _ = try notify(decoder.finish(read), from: call.sender, system: nil, now: now, id: call.id)
                handled += 1
            } catch {
                dropped(call, error.message)
            }
        }
        guard store.notKept == nil else { return }  // a full disk: the log waits for the next start
        store.forgetOlderCalls()
        if store.olderRowsTaken + handled > 0 {
            Log.info("put \(store.olderRowsTaken + handled) notification(s) into the center that chimed 0.1.0 had answered before it stopped")
        }
    }

    /// At a turn's end, before its replies: commits what the turn changed. When the center could
    /// not keep it (a full disk), the calls that made notifications are refused instead, and what
    /// they made leaves the screen and the center: no app holds an id the center lost.
    func commitTurn() {
        let (broken, why) = center.commitTurn()
        guard !broken.isEmpty else { return }
        for (call, _) in broken { objects.turn.refuse(call, BusError(BusError.ioError, why)) }
        // Not recorded: the center never held them. Nor do they make a sound or run a hook.
        effects.add(attention.refuse(broken.map(\.id)))
        effects.drop(madeBy: Set(broken.map(\.id)))
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
        center.inOneTransaction {
            for id in ids where attention.server.notification(id) == nil {
                signals.emitNotifications("NotificationClosed", [.uint32(id), .uint32(CloseReason.expired.rawValue)])
                store?.recordClosed(id, reason: .expired, wall: wall)
            }
        }
    }
}
