import Testing
@testable import ChimeCore

/// While the screen is shared, only critical notifications show, with their previews hidden; the
/// sharing Focus wins over any other and ends with the last thing that held it.
@Suite struct SharingTests {
    var attention: Attention
    let now = at(.monday, "10:00")

    init() {
        var settings = ChimeSettings()
        var work = FocusMode(name: "work")
        work.allowedApps = ["mail"]
        settings.focusModes.append(work)
        settings.apps["alarm"] = ["critical-alerts": "true"]
        attention = Attention(settings: settings)
    }

    @Test mutating func sharingHoldsAllButCriticalAndHidesItsPreview() throws {
        _ = attention.setSharing(true, now: now)
        #expect(attention.currentFocus == .init(name: FocusMode.sharing, source: .sharing, until: nil))
        let active = try attention.notify(.make(app: "chat", summary: "hi"), from: ":1.1", now: now).id
        let urgent = try attention.notify(.make(app: "chat", summary: "call", hints: ["urgency": .byte(2)]), from: ":1.1", now: now).id
        let critical = try attention.notify(.make(app: "alarm", summary: "fire", hints: ["x-chime-interruption-level": .string("critical")]),
                                            from: ":1.1", now: now).id
        #expect(attention.server.notification(active)?.state == .heldByFocus(FocusMode.sharing))
        #expect(attention.server.notification(urgent)?.state == .heldByFocus(FocusMode.sharing), "time-sensitive waits too")
        let shown = try #require(attention.server.notification(critical))
        #expect(shown.state == .presented && shown.decision?.redacted == true)
        let ended = attention.setSharing(false, now: now)
        #expect(attention.currentFocus == nil)
        #expect(ended.contains { if case .presented(let n) = $0 { n.request.summary == "While Screen Sharing was on" } else { false } })
    }

    /// Sharing wins over a Focus turned on by hand, which is back once sharing ends.
    @Test mutating func sharingWinsOverAnotherFocus() throws {
        _ = try attention.focusOn("work", until: nil, now: now)
        _ = attention.setSharing(true, now: now)
        let mail = try attention.notify(.make(app: "mail"), from: ":1.1", now: now).id
        #expect(attention.server.notification(mail)?.state == .heldByFocus(FocusMode.sharing), "work would allow it")
        _ = attention.setSharing(false, now: now)
        #expect(attention.currentFocus?.name == "work")
    }

    /// KDE's inhibition holds sharing on until it is released or its client leaves the bus.
    @Test mutating func anInhibitionHoldsSharingUntilItsClientLeaves() throws {
        let first = try attention.inhibit(focus: FocusMode.sharing, owner: ":1.7", application: "xdg-desktop-portal-kde",
                                          reason: "screencast", now: now).cookie
        _ = try attention.inhibit(focus: FocusMode.sharing, owner: ":1.8", application: "obs", reason: "recording", now: now)
        #expect(attention.focus.sharing)
        _ = try attention.uninhibit(first, now: now)
        #expect(attention.focus.sharing, "another still holds it")
        _ = attention.clientLeft(":1.8", now: now)
        #expect(!attention.focus.sharing && attention.currentFocus == nil)
    }
}
