import Testing
import ChimeControl
@testable import ChimeCore

/// The panel's layout of the center (`CenterContent`) and the report's figures (`ActivityReport`),
/// from records as the control interface gives them.
@Suite struct CenterContentTests {
    private func record(_ id: UInt32, app: String, thread: String = "", state: String = "presented",
                        unread: Bool = true, heldBy: String? = nil, category: String? = nil) -> [String: BusValue] {
        var record: [String: BusValue] = [
            "id": .uint32(id), "app-identity": .string(app), "app-name": .string(app.prefix(1).uppercased() + app.dropFirst()), "summary": .string("s\(id)"),
            "thread": .string(thread), "state": .string(state), "unread": .bool(unread),
            "actions": .stringArray(["default", "Open", "inline-reply", "Reply", "archive", "Archive"]),
        ]
        if let heldBy { record["held-by"] = .string(heldBy) }
        if let category { record["category"] = .string(category) }
        return record
    }

    /// Newest first in, apps ordered by their newest, each app's threads together (the thread
    /// heard from last first), and what a Focus holds or the summary waits for apart.
    @Test func theCenterIsGroupedByAppThenThreadWithHeldOnesApart() {
        let content = CenterContent(records: [
            record(9, app: "mail", thread: "a"),
            record(8, app: "chat"),
            record(7, app: "mail", thread: "b", unread: false),
            record(6, app: "mail", thread: "a"),
            record(5, app: "chat", state: "held-by-focus", heldBy: "work"),
            record(4, app: "news", state: "held-for-summary"),
            record(3, app: "mail", thread: "b"),
            record(2, app: "chime", category: "x-chime.summary"),
            record(1, app: "chime", category: "x-chime.summary"),
        ])
        #expect(content.groups.map(\.app) == ["mail", "chat", "chime"])
        #expect(content.groups.first?.items.map(\.id) == [9, 6, 7, 3])
        #expect(content.groups.first?.unread == 3)
        #expect(content.groups.first?.name == "Mail")
        #expect(content.held.map(\.focus) == ["work"])
        #expect(content.held.first?.items.map(\.id) == [5])
        #expect(content.waiting.map(\.id) == [4])
        #expect(content.summaryCard?.id == 2, "the last summary is the card")
        #expect(content.groups.last?.items.map(\.id) == [1], "an earlier one is with Chime's")
        let item = content.groups[0].items[0]
        #expect(item.hasDefaultAction && item.offersReply)
        #expect(item.buttons.map(\.key) == ["archive"], "the default action and the reply are not buttons")
    }

    @Test func theReportAddsUpPerAppTodayAndOverTheSpan() {
        func row(_ day: String, _ app: String, banners: UInt32, sounds: UInt32 = 0, held: UInt32 = 0) -> [String: BusValue] {
            ["day": .string(day), "app-identity": .string(app), "app-name": .string(app.prefix(1).uppercased() + app.dropFirst()), "banners": .uint32(banners),
             "sounds": .uint32(sounds), "held": .uint32(held)]
        }
        let report = ActivityReport(dates: ["2026-12-02", "2026-12-03", "2026-12-04"], rows: [
            row("2026-12-02", "chat", banners: 5, sounds: 5),
            row("2026-12-03", "mail", banners: 2, held: 4),
            row("2026-12-04", "mail", banners: 1, sounds: 1),
            row("2026-11-01", "old", banners: 99),
        ])
        #expect(report.apps.map(\.identity) == ["chat", "mail"], "most interruptions first; a day outside the span is left out")
        #expect(report.apps[1].total == ActivityCounts(banners: 3, sounds: 1, held: 4))
        #expect(report.apps[1].today == ActivityCounts(banners: 1, sounds: 1))
        #expect(report.apps[0].today == ActivityCounts())
        #expect(report.everyDay.map(\.interruptions) == [10, 2, 2])
    }
}
