import ChimeTestSupport
import Foundation
import Testing

/// What reached the person, per app (`chimectl report`), and searching the center
/// (`chimectl history --search`), through notify-send and chimectl.
@Suite struct ReportTests {
    private static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private static func app(_ report: [String: Any], _ name: String) -> [String: Any]? {
        (report["apps"] as? [[String: Any]])?.first { $0["app-name"] as? String == name }
    }

    /// Two banners from Mail (one sound: one a burst), one quiet (low urgency) from Mail, one changed in place
    /// without interrupting again, and two held by Do Not Disturb from Chat: the report counts each
    /// where it went, today and over the week, and keeps the figures across a restart.
    @Test func reportCountsWhatInterruptedPerApp() throws {
        let bus = try TestBus()
        #expect(try bus.chimectl("report").status == 0)
        _ = try bus.run("notify-send", ["-a", "Mail", "first", "x"])
        let id = try bus.run("notify-send", ["-p", "-a", "Mail", "second", "x"]).stdout
        _ = try bus.run("notify-send", ["-a", "Mail", "-u", "low", "a newsletter", "x"])
        // The same id again is an update in place, which does not interrupt again.
        _ = try bus.run("notify-send", ["-r", id, "-a", "Mail", "second, edited", "x"])
        #expect(try bus.chimectl("dnd", "on").status == 0)
        _ = try bus.run("notify-send", ["-a", "Chat", "held one", "x"])
        _ = try bus.run("notify-send", ["-a", "Chat", "held two", "x"])

        var report = try Self.json(bus.chimectl("report", "--json").stdout)
        #expect((report["dates"] as? [String])?.count == 7)
        let mail = try #require(Self.app(report, "Mail"), "\(report)")
        #expect(mail["banners"] as? Int == 2)
        #expect(mail["sounds"] as? Int == 1)
        #expect(mail["interruptions"] as? Int == 3)
        #expect(mail["updates"] as? Int == 1)
        #expect(mail["quiet"] as? Int == 1)
        #expect((mail["today"] as? [String: Any])?["banners"] as? Int == 2)
        #expect((mail["by-day"] as? [[String: Any]])?.last?["banners"] as? Int == 2)
        let chat = try #require(Self.app(report, "Chat"))
        #expect(chat["held"] as? Int == 2)
        #expect(chat["interruptions"] as? Int == 0)
        #expect((report["apps"] as? [[String: Any]])?.first?["app-name"] as? String == "Mail", "the app that interrupted most comes first")

        let table = try bus.chimectl("report", "--since", "today").stdout
        #expect(table.split(separator: "\n").first?.split(separator: "\t").map(String.init) == ["Mail", "3", "2", "1", "1", "0", "1"])

        try bus.restartChimed()
        report = try Self.json(bus.chimectl("report", "--json", "--since", "30d").stdout)
        #expect((report["dates"] as? [String])?.count == 30)
        #expect(Self.app(report, "Mail")?["banners"] as? Int == 2, "kept across a restart")
    }

    @Test func reportRefusesASpanItCannotGive() throws {
        let bus = try TestBus()
        for span in ["0", "401d", "soon"] {
            let result = try bus.chimectl("report", "--since", span)
            #expect(result.status == 2, "\(span)")
            #expect(result.stderr.contains("--since takes today or a duration"), "\(span): \(result.stderr)")
        }
        let call = try bus.run("gdbus", ["call", "--session", "--dest", "dev.chime.Chime1", "--object-path", "/dev/chime/Chime1",
                                         "--method", "dev.chime.Chime1.Activity", "0"])
        #expect(call.stderr.contains("days must be 1 (today) to 400"), "\(call.stderr)")
    }

    /// Search finds text in the summary, the body or the app's name, in any case, and takes
    /// `%` and `_` as themselves.
    @Test func historySearchFindsTextAnywhereInTheCenter() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "Builds", "Deploy finished", "main is live"])
        _ = try bus.run("notify-send", ["-a", "Mail", "Lunch?", "the deployment can wait"])
        _ = try bus.run("notify-send", ["-a", "Chat", "disk at 95%", "x"])
        _ = try bus.run("notify-send", ["-a", "Chat", "disk at 95 percent", "x"])
        func found(_ text: String) throws -> [String] {
            try bus.chimectl("history", "--search", text).stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) }
        }
        #expect(try found("deploy") == ["Lunch?", "Deploy finished"])
        #expect(try found("BUILDS") == ["Deploy finished"])
        #expect(try found("95%") == ["disk at 95%"])
        #expect(try found("9_") == [])
        #expect(try found("nowhere") == [])
        #expect(try bus.chimectl("history", "--search", "").status == 2)
    }

    /// What a screen is given (the panel asks `as-shown`): an app whose previews are hidden shows
    /// its name and a placeholder, and a search finds it by its name, never by the text it hides.
    @Test func theCenterAsShownHidesWhatPreviewsHide() throws {
        let bus = try TestBus()
        #expect(try bus.chimectl("apps", "set", "Bank", "previews=never").status == 0)
        let picture = bus.directory.appendingPathComponent("statement.png").path
        #expect(try bus.run("/usr/bin/convert", ["-size", "8x8", "xc:red", picture]).status == 0)
        _ = try bus.run("notify-send", ["-a", "Bank", "-h", "string:image-path:\(picture)", "Your code is QX-4711", "do not share it"])
        _ = try bus.run("notify-send", ["-a", "Mail", "code review", "x"])
        func history(_ filter: String) throws -> String {
            try bus.run("gdbus", ["call", "--session", "--dest", "dev.chime.Chime1", "--object-path", "/dev/chime/Chime1",
                                  "--method", "dev.chime.Chime1.History", filter]).stdout
        }
        let shown = try history("{'as-shown': <true>}")
        // The code with letters around it: a record's times are numbers, and one held 4711 once.
        #expect(!shown.contains("QX-4711") && !shown.contains("do not share") && !shown.contains(picture), "\(shown)")
        #expect(shown.contains("'summary': <'Bank'>") && shown.contains("'redacted': <true>"), "\(shown)")
        #expect(shown.contains("code review"))
        #expect(try history("{}").contains("QX-4711") && history("{}").contains(picture), "chimectl history, the user's own, keeps it all")
        let searched = try history("{'as-shown': <true>, 'text': <'code'>}")
        #expect(searched.contains("code review") && !searched.contains("'Bank'"), "\(searched)")
        #expect(try history("{'as-shown': <true>, 'text': <'bank'>}").contains("'summary': <'Bank'>"))
    }
}
