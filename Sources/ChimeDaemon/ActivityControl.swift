import CGLib
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeStore

/// The Activity method of dev.chime.Chime1: what reached the person per app and day, the figures
/// of `chimectl report` and the panel's Activity view.
extension ControlInterface {
    /// Days `Activity` may ask for: as many as the center keeps.
    static let activityDays = 1...UInt32(ControlProtocol.activityDays)

    func activityHandlers() -> [String: ExportedInterface.Handler] {
        [
            "Activity": { [unowned self] call throws(BusError) in
                guard let days = call.arguments[0].uint32, Self.activityDays.contains(days) else {
                    throw .invalidArgs("days must be 1 (today) to \(Self.activityDays.upperBound)")
                }
                let store = try requireStore()
                center.keepActivity()
                let today = core.now.local.day
                let first = today - Int(days) + 1
                let dates = (first...today).map { Self.isoDate(julianDay: $0) }
                let rows = store.activity(since: first).map { row in
                    BusValue.vardict([
                        ("day", .string(Self.isoDate(julianDay: row.day))), ("app-identity", .string(row.app)),
                        ("app-name", .string(row.name)), ("banners", .uint32(UInt32(clamping: row.counts.banners))),
                        ("sounds", .uint32(UInt32(clamping: row.counts.sounds))),
                        ("updates", .uint32(UInt32(clamping: row.counts.updates))),
                        ("held", .uint32(UInt32(clamping: row.counts.held))), ("quiet", .uint32(UInt32(clamping: row.counts.quiet))),
                    ])
                }
                return [.stringArray(dates), .array(elementSignature: "a{sv}", rows)]
            },
        ]
    }

    /// "2026-12-04" for a Julian day number (`LocalTime.day`).
    static func isoDate(julianDay: Int) -> String {
        guard julianDay > 0, let date = g_date_new_julian(guint32(julianDay)) else { return "" }
        defer { g_date_free(date) }
        let year = Int(g_date_get_year(date)), month = Int(g_date_get_month(date).rawValue), day = Int(g_date_get_day(date))
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
