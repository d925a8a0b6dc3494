import Testing
import ChimeControl
@testable import ChimeCore

/// A notification's record as chimed writes it (`NotificationRecord`) and as a presenter reads
/// it (`BannerContent`), side by side.
@Suite struct RecordTests {
    @Test func aBannerReadsThePresentedRecord() {
        let record: [String: BusValue] = [
            "app-name": .string("Mail"), "summary": .string("New mail"), "body": .string("<b>Hi</b>"),
            "actions": .stringArray(["default", "Open", "delete", "Delete", "inline-reply", "Reply", "a", "A", "b", "B", "c", "C"]),
            "destructive-actions": .stringArray(["delete"]), "level": .string("time-sensitive"),
            "repeat-count": .uint32(3), "progress": .int32(40), "app-icon": .string("mail-unread"),
        ]
        let content = BannerContent(id: 7, record: record)
        #expect(content.summary == "New mail (3x)")
        #expect(content.hasDefaultAction && content.replyPlaceholder == "Reply…")
        #expect(content.buttons.map(\.key) == ["delete", "a", "b", "c"], "at most four; default and reply are not buttons")
        #expect(content.buttons.first?.destructive == true)
        #expect(content.level == .timeSensitive && content.progress == 40 && content.icon == "mail-unread")
    }

    /// Past four buttons the rest are the "more" button's: not the default action, not the reply.
    /// As Plasma shows KDE's hints: the display name, then where it came from.
    @Test func aBannersHeaderSaysTheDisplayNameAndOrigin() {
        let kde = BannerContent(id: 1, record: ["app-name": .string("KDE Connect"), "display-app-name": .string("Signal"),
                                                "origin": .string("Pixel 8")])
        #expect(kde.header == "Signal · Pixel 8")
        #expect(BannerContent(id: 2, record: ["app-name": .string("Mail")]).header == "Mail")
    }

    @Test func theMoreButtonOffersTheActionsPastTheButtons() {
        let actions = ["default", "Open", "inline-reply", "Reply"] + (1...6).flatMap { ["a\($0)", "A\($0)"] }
        let content = BannerContent(id: 1, record: ["actions": .stringArray(actions)])
        #expect(content.buttons.map(\.key) == ["a1", "a2", "a3", "a4"])
        #expect(content.moreActions.map(\.key) == ["a5", "a6"])
        #expect(BannerContent(id: 1, record: ["actions": .stringArray(["default", "Open", "a", "A"])]).moreActions.isEmpty)
    }

    /// The spec's order: image-data, then image-path, then app_icon; a message's avatar is its image.
    @Test func aBannerShowsTheImageBeforeTheAppIcon() {
        let both: [String: BusValue] = ["app-icon": .string("mail-unread"), "image-path": .string("/tmp/photo.png")]
        #expect(BannerContent(id: 1, record: both).icon == "/tmp/photo.png")
        #expect(BannerContent(id: 1, record: ["app-icon": .string("chat"), "avatar-path": .string("/tmp/ada.png")]).icon == "/tmp/ada.png")
        #expect(BannerContent(id: 1, record: ["app-icon": .string("chat")]).icon == "chat")
    }

    @Test func aThreadsBannerSaysHowManyItStandsFor() {
        #expect(BannerContent(id: 1, record: ["summary": .string("Alex"), "thread-count": .uint32(20)]).summary == "Alex · 20 new")
    }

    /// What chimed writes, a presenter reads: each field a banner draws survives the trip, and a
    /// hidden preview arrives hidden.
    @Test func whatIsWrittenIsRead() {
        var hints = NotificationHints()
        hints.desktopEntry = "org.example.Mail"
        hints.destructiveActions = ["delete"]
        hints.progress = 40
        let request = NotificationRequest(appName: "Mail", appIcon: "mail-unread", summary: "New mail", body: "<b>Hi</b>",
                                          actions: [Action(key: "default", label: "Open"), Action(key: "delete", label: "Delete")],
                                          hints: hints)
        var notification = Notification(id: 9, request: request, sender: ":1.4", created: .init(milliseconds: 0),
                                        updated: .init(milliseconds: 0), expires: nil)
        notification.repeatCount = 2
        let content = BannerContent(id: 9, record: NotificationRecord.busValue(notification).vardictEntries ?? [:])
        #expect(content.appName == "Mail" && content.summary == "New mail (2x)" && content.body == "<b>Hi</b>")
        #expect(content.icon == "mail-unread" && content.desktopEntry == "org.example.Mail" && content.progress == 40)
        #expect(content.hasDefaultAction && content.buttons.map(\.key) == ["delete"] && content.buttons[0].destructive)

        var decision = DeliveryDecision.decide(request, identity: "org.example.Mail", context: .init(app: AppSettings()))
        decision.redacted = true
        notification.decision = decision
        let hidden = BannerContent(id: 9, record: NotificationRecord.busValue(notification, asPresented: true).vardictEntries ?? [:])
        #expect(hidden.summary == "Mail (2x)" && hidden.body != "<b>Hi</b>")
    }
}
