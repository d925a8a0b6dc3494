import Testing
@testable import ChimeCore

/// What lets chimed's bus thread answer a Notify before the main thread handles it: one source
/// of ids, a notification made under the id already given, and a gate that sends a call that may
/// repeat another to the main thread.
@Suite struct EarlyAnswerTests {
    let t0 = Instant.at(1_000)

    @Test func aNotificationTakesTheIdItWasAnsweredWith() throws {
        var server = NotificationServer()
        let given = server.ids.next()
        #expect(try server.notify(.make(), from: ":1.1", now: t0, id: given).id == given)
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == given + 1, "the next id comes after it")
    }

    @Test func everyCopyOfAServerDrawsFromOneSequence() throws {
        var server = NotificationServer(lastID: 41)
        let copy = server
        #expect(copy.ids.next() == 42)
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == 43)
    }

    @Test func aRepeatAnsweredEarlyKeepsItsOwnIdAndIsNotMerged() throws {
        var attention = Attention()
        let now = at(.monday, "10:00", wall: 1_000)
        let request = NotificationRequest.make(summary: "Build failed")
        let first = try attention.notify(request, from: ":1.1", now: now).id
        #expect(try attention.notify(request, from: ":1.1", now: now).id == first, "merged when not answered early")
        let given = attention.server.ids.next()
        #expect(try attention.notify(request, from: ":1.1", now: now, id: given).id == given)
        #expect(attention.server.notification(given)?.repeatCount == 1 && attention.server.notification(first) != nil)
    }

    @Test func theGateHoldsWhatTheDetectorRemembersAndWhatIsOnItsWay() {
        var detector = RepeatDetector()
        let gate = detector.gate
        let build = RepeatDetector.Key(.make(summary: "Build failed"))
        let other = RepeatDetector.Key(.make(summary: "Build passed"))
        #expect(!gate.passOn(build), "nothing like it yet")
        #expect(gate.passOn(build), "the first is still on its way")
        gate.handled(build)
        gate.handled(build)
        #expect(!gate.passOn(other))
        gate.handled(other)
        detector.note(build, id: 1, now: t0, window: .seconds(10), capacity: 100)
        #expect(gate.passOn(build), "the detector remembers it")
        gate.handled(build)
        detector.note(other, id: 2, now: t0 + .seconds(20), window: .seconds(10), capacity: 100)
        #expect(!gate.passOn(build), "past the window the detector forgot it")
        #expect(gate.passOn(other))
    }
}
