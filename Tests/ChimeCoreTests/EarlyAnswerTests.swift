import Testing
@testable import ChimeCore

/// What lets chimed's bus thread answer a Notify before the main thread handles it: a
/// notification made under the id already given (one source of ids: IDSequenceTests).
@Suite struct EarlyAnswerTests {
    let t0 = Instant.at(1_000)

    @Test func aNotificationTakesTheIdItWasAnsweredWith() throws {
        var server = NotificationServer()
        let given = server.ids.next()
        #expect(try server.notify(.make(), from: ":1.1", now: t0, id: given).id == given)
        #expect(try server.notify(.make(), from: ":1.1", now: t0).id == given + 1, "the next id comes after it")
    }

    /// Every call gets an id of its own, a repeat too, answered early or not (the spec: ids are
    /// unique): the repeat is merged only where the person sees it, and each stays open for its app.
    @Test func aRepeatHasItsOwnIdAnsweredEarlyOrNot() throws {
        var attention = Attention()
        let now = at(.monday, "10:00", wall: 1_000)
        let request = NotificationRequest.make(summary: "Build failed")
        let first = try attention.notify(request, from: ":1.1", now: now).id
        let second = try attention.notify(request, from: ":1.1", now: now).id
        #expect(second != first)
        let given = attention.server.ids.next()
        #expect(try attention.notify(request, from: ":1.1", now: now, id: given).id == given)
        #expect(attention.server.notification(given)?.repeatCount == 3, "merged on screen: ×3")
        #expect([first, second, given].allSatisfy { attention.server.notification($0) != nil }, "each open for its app")
    }
}
