import ChimeControl
import ChimeCore

/// `chimectl report [--since DURATION] [--json]`: what reached the person per app, today and
/// over the span (default 7 days), as the panel's Activity view shows it.
enum ReportCommand {
    static func report(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        var days: UInt32 = 7
        if let text = try arguments.option("--since") {
            days = try Self.days(text)
        }
        try arguments.done()
        let reply = try ControlClient().call("Activity", [.uint32(days)])
        let report = ActivityReport(dates: reply.first?.strings ?? [], rows: reply.count > 1 ? reply[1].records : [])
        if json {
            print(Self.json(report))
            return
        }
        if report.apps.isEmpty {
            TextTable.printEmpty(report.dates.first.map { tr("nothing reached you since {day}", ["day": $0]) } ?? tr("nothing reached you today"))
            return
        }
        var table = TextTable("APP", "TODAY", days == 1 ? "" : "\(days) DAYS", "BANNERS", "SOUNDS", "UPDATES", "HELD", "QUIET")
        for app in report.apps {
            let total = app.total
            var cells = [app.name.withoutControlCharacters(), String(app.today.interruptions)]
            if days != 1 { cells.append(String(total.interruptions)) }
            table.add(cells + [total.banners, total.sounds, total.updates, total.held, total.quiet].map(String.init))
        }
        table.print()
    }

    /// "today" is one day; a duration counts the local days it reaches back into ("7d" is
    /// today and the six before it, "36h" today and the two before).
    static func days(_ text: String) throws(CommandLineError) -> UInt32 {
        if text == "today" { return 1 }
        let most = Int64(ControlProtocol.activityDays)
        guard let seconds = DurationText.seconds(text), seconds > 0, seconds <= most * 86_400 else {
            throw .usage(tr("--since takes today or a duration of up to {most} days such as 7d or 36h, not '{text}'", ["most": most, "text": text]))
        }
        return UInt32((seconds + 86_399) / 86_400)
    }

    /// `{"dates": [...], "apps": [{"app-identity", "app-name", "interruptions", "banners", ...,
    /// "today": {...}, "by-day": [{...}, one per date]}]}`.
    static func json(_ report: ActivityReport) -> String {
        func counts(_ counts: ActivityCounts) -> [(String, BusValue)] {
            [("interruptions", .int64(Int64(counts.interruptions))), ("banners", .int64(Int64(counts.banners))),
             ("sounds", .int64(Int64(counts.sounds))), ("updates", .int64(Int64(counts.updates))),
             ("held", .int64(Int64(counts.held))), ("quiet", .int64(Int64(counts.quiet)))]
        }
        let apps = report.apps.map { app in
            BusValue.vardict([("app-identity", .string(app.identity)), ("app-name", .string(app.name))] + counts(app.total)
                + [("today", .vardict(counts(app.today))),
                   ("by-day", .array(elementSignature: "a{sv}", app.byDay.map { .vardict(counts($0)) }))])
        }
        return JSONText.encode(.vardict([("dates", .stringArray(report.dates)), ("apps", .array(elementSignature: "a{sv}", apps))]))
    }
}
