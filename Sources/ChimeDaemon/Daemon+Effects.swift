import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import CShims
import Glibc

/// The daemon's side of what the core decided, once the turn's replies are gone: each event's
/// effects (`Effects`), unread counts and badges, the day's activity, the Focus said, the
/// timers armed again, apps.state kept.
extension Daemon {
    /// Does what applied events mean (sounds and hooks only once the turn's commit kept them:
    /// `EffectQueue`), then re-arms the timers and announces badges.
    func settle() {
        guard let due = effects.due(inTurn: objects.inTurn) else { return }
        let day = clock.localTime(unixMilliseconds: LocalClock.wallMilliseconds()).day
        for event in due {
            attention.unread.observe(event)
            center.activity.count(event, day: day)
            effects.handle(event, sounds: attention.settings.sounds)
        }
        effects.announceDeleted()
        retired.tellWhenQuiet()
        expiryTimer?.arm(at: attention.server.nextDeadline?.milliseconds)
        snoozeTimer?.arm(at: attention.server.nextSnoozeEnd.map {
            GLibSources.monotonicMilliseconds() + ($0 - LocalClock.wallMilliseconds())
        })
        attention.unread.takeChanged { badges.mayHaveChanged($0) }
    }

    /// The apps' settings and state, muting and a Focus turned on by hand, to disk if changed.
    func saveAppStateIfChanged() {
        guard appStateUnsaved else { return }
        appStateUnsaved = false
        appStore.save(attention.apps, muted: attention.muteOverride, focus: attention.focus.manual,
                      sharing: attention.focus.sharedByHand)
    }

    func announceBadges(_ changed: [(String, Badge)]) {
        let list = changed.map { app, badge in BadgeBoard.record(app, badge) }
        signals.emitControl("BadgesChanged", [.array(elementSignature: "a{sv}", list), .uint32(UInt32(attention.unread.total))])
    }

    func announceFocus() {
        let name = attention.currentFocus?.name ?? ""
        Log.info(name.isEmpty ? "Focus off" : "Focus \(name) on (\(attention.currentFocus!.source.rawValue))")
        signals.emitControl("FocusChanged", [.string(name), controlInterface.focusStatus()])
        signals.controlPropertiesChanged([("ActiveFocus", .string(name))])
        signals.notificationsPropertiesChanged([("Inhibited", .bool(attention.focus.sharing))])
    }
}
