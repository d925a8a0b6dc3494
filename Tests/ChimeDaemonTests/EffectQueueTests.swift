import ChimeCore
import Testing
@testable import ChimeDaemon

/// What the core's events mean beyond the center: during a turn, sounds and hooks wait for its
/// commit, and those of a refused Notify never happen.
@Suite struct EffectQueueTests {
    func notification(_ id: UInt32) -> ChimeCore.Notification {
        Notification(id: id, request: NotificationRequest(appName: "app", summary: "s"), sender: ":1.1",
                     created: Instant(milliseconds: 0), updated: Instant(milliseconds: 0), expires: nil)
    }

    @Test func duringATurnSoundsAndHooksWaitForTheCommit() {
        var queue = EffectQueue()
        let sound = ServerEvent.playSound(notification(1), SoundChoice(level: .active))
        queue.add([.presented(notification(1)), sound])
        #expect(queue.isDue(inTurn: true))
        #expect(queue.take(inTurn: true) == [.presented(notification(1))])
        #expect(!queue.isDue(inTurn: true) && queue.isDue(inTurn: false))
        #expect(queue.take(inTurn: false) == [sound], "once the turn's replies are gone")
        #expect(!queue.isDue(inTurn: false))
    }

    @Test func aRefusedNotificationMakesNoSound() {
        var queue = EffectQueue()
        let kept = ServerEvent.playSound(notification(1), SoundChoice(level: .active))
        queue.add([kept, .playSound(notification(2), SoundChoice(level: .active))])
        _ = queue.take(inTurn: true)
        queue.drop(madeBy: [2])
        #expect(queue.take(inTurn: false) == [kept])
    }

    /// The turn's last call's sound has not been taken yet when the commit fails: it goes too.
    @Test func aRefusedNotificationsSoundNotYetTakenMakesNoSoundEither() {
        var queue = EffectQueue()
        queue.add([.presented(notification(4)), .playSound(notification(4), SoundChoice(level: .active))])
        queue.drop(madeBy: [4])
        #expect(queue.take(inTurn: true) == [.presented(notification(4))])
        #expect(queue.take(inTurn: false).isEmpty)
    }

    /// Outside a turn (a timer, a desktop change) nothing waits; no events still re-arm the timers.
    @Test func outsideATurnEverythingGoesAtOnce() {
        var queue = EffectQueue()
        let sound = ServerEvent.playSound(notification(3), SoundChoice(level: .active))
        queue.add([sound])
        #expect(queue.take(inTurn: false) == [sound])
        queue.add([])
        #expect(queue.isDue(inTurn: false) && queue.take(inTurn: false).isEmpty)
    }
}
