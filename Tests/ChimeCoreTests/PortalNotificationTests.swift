import Testing
@testable import ChimeCore

extension PortalNotification {
    /// Read, with what was bounded left unsaid.
    init(decoding entries: [String: BusValue]) throws(RequestError) {
        var problems: [String] = []
        try self.init(decoding: entries, problems: &problems)
    }
}

/// The portal's notification mapped to Chime's request (design section 19).
@Suite struct PortalNotificationTests {
    private func request(_ entries: [String: BusValue]) throws -> NotificationRequest {
        try PortalNotification(decoding: entries).request(appID: "org.example.App", appName: "App")
    }

    @Test func prioritiesBecomeLevels() throws {
        func level(_ priority: String, hints: [String] = []) throws -> InterruptionLevel {
            InterruptionPolicy.requestedLevel(try request(["priority": .string(priority), "display-hint": .stringArray(hints)]))
        }
        #expect(try level("low") == .passive)
        #expect(try level("normal") == .active)
        #expect(try level("high") == .timeSensitive)
        #expect(try level("urgent") == .timeSensitive)
        #expect(try level("urgent", hints: ["tray"]) == .passive, "tray shows no banner")
    }

    @Test func displayHintsAndSounds() throws {
        var portal = try PortalNotification(decoding: ["display-hint": .stringArray(["transient", "hide-on-lockscreen", "show-as-new"])])
        portal.sound = .silent
        let hints = portal.request(appID: "org.example.App", appName: "App").hints
        #expect(hints.transient && hints.hidesPreviewWhenLocked && hints.interrupt && hints.suppressSound)
        #expect(hints.desktopEntry == "org.example.App")
        let persistent = try request(["display-hint": .stringArray(["persistent"])]).hints
        #expect(persistent.resident && !persistent.transient)
    }

    @Test func buttonsByPurposeAndTheActionsSaidBack() throws {
        let portal = try PortalNotification(decoding: [
            "default-action": .string("open"), "default-action-target": .string("room"),
            "buttons": .array(elementSignature: "a{sv}", [
                .vardict([("action", .string("answer")), ("purpose", .string("call.accept"))]),
                .vardict([("action", .string("say")), ("purpose", .string("im.reply-with-text"))]),
                .vardict([("action", .string("ring")), ("purpose", .string("system.custom-alert"))]),
            ]),
        ])
        let actions = portal.request(appID: "a", appName: "A").actions
        #expect(actions.map(\.key) == ["default", "answer", "inline-reply"])
        #expect(actions.map(\.label) == ["Open", "Accept", "Reply"])
        #expect(portal.portalAction(for: "default")?.action == "open")
        #expect(portal.portalAction(for: "default")?.target == .string("room"))
        #expect(portal.portalAction(for: "inline-reply")?.action == "say")
        #expect(portal.portalAction(for: "answer")?.action == "answer")
    }

    @Test func unknownValuesAreRefused() {
        #expect(throws: RequestError.self) { try PortalNotification(decoding: ["priority": .string("high!")]) }
        #expect(throws: RequestError.self) { try PortalNotification(decoding: ["category": .string("im.gossip")]) }
        #expect(throws: RequestError.self) {
            try PortalNotification(decoding: ["buttons": .array(elementSignature: "a{sv}", [.vardict([("label", .string("No action"))])])])
        }
        #expect((try? PortalNotification(decoding: ["category": .string("x-example.custom")]))?.category == "x-example.custom")
    }

    /// `hide-content-on-lock-screen`: hidden while locked, whatever the app's previews setting.
    @Test func contentHiddenOnTheLockScreenIsRedactedOnlyWhileLocked() throws {
        let request = try request(["display-hint": .stringArray(["hide-content-on-lock-screen"])])
        var app = AppSettings()
        app.previews = .always
        #expect(DeliveryDecision.decide(request, identity: "app", context: .init(app: app, locked: true)).redacted)
        #expect(!DeliveryDecision.decide(request, identity: "app", context: .init(app: app, locked: false)).redacted)
    }

    /// Notify's bounds hold for the portal's notifications: what one call may cost is bounded.
    @Test func theBoundsOfNotifyHold() throws {
        let buttons = (0..<1_000).map { index in
            BusValue.vardict([("action", .string("a\(index)")), ("label", .string(String(repeating: "l", count: 50_000)))])
        }
        var problems: [String] = []
        let portal = try PortalNotification(decoding: [
            "buttons": .array(elementSignature: "a{sv}", buttons + [.vardict([("action", .string(String(repeating: "k", count: 2_000))), ("label", .string("x"))])]),
            "category": .string("x-" + String(repeating: "c", count: 1_000_000)),
            "default-action": .string("open"),
        ], problems: &problems)
        #expect(portal.buttons.count == NotifyLimits.actions - 1)
        #expect(portal.buttons.allSatisfy { $0.label.utf8.count == NotifyLimits.actionLabelBytes })
        #expect(portal.category == nil)
        #expect(portal.request(appID: "a", appName: "A").actions.count == NotifyLimits.actions)
        #expect(problems.contains("1001 buttons sent; the first 15 are kept"), "\(problems)")
        #expect(throws: RequestError.self) {
            try PortalNotification(decoding: ["default-action": .string("open"), "default-action-target": .bytes([UInt8](repeating: 1, count: 100_000))])
        }
    }
}
