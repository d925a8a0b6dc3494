/// Scheduled summaries (chimed(1)'s attention model): when a delivery time passes, and what the
/// summary says about the notifications it delivers.
public enum ScheduledSummary {
    /// The category of the notification a summary is delivered in: the panel shows the last one
    /// as a card.
    public static let category = "x-chime.summary"

    /// True when a delivery time lies in (from, to]: checked day by day, so a time skipped by a
    /// daylight-saving jump or a suspended laptop still counts once.
    public static func isDue(times: [ClockTime], from: LocalTime, to: LocalTime) -> Bool {
        guard !times.isEmpty, from < to else { return false }
        let firstDay = max(from.day, to.day - 1)
        for day in firstDay...to.day {
            for time in times {
                let moment = (day, time.minuteOfDay)
                if moment > (from.day, from.minuteOfDay) && moment <= (to.day, to.minuteOfDay) { return true }
            }
        }
        return false
    }

    /// Most relevant first (`x-chime-relevance`, default 0.5), then newest. Newest by id: ids
    /// grow with each notification, across restarts too, where a notification put back from the
    /// center has no time of its own on this run's clock.
    public static func ordered(_ notifications: [Notification]) -> [Notification] {
        notifications.sorted { comesFirst(($0.request.hints.relevance ?? 0.5, $0.id), ($1.request.hints.relevance ?? 0.5, $1.id)) }
    }

    static func comesFirst(_ a: (relevance: Double, id: UInt32), _ b: (relevance: Double, id: UInt32)) -> Bool {
        a.relevance != b.relevance ? a.relevance > b.relevance : a.id > b.id
    }

    /// What a summary lists of one notification: a few words, not the notification (whose body
    /// and image may be large).
    public struct Item: Sendable {
        var id: UInt32
        var app: String
        var summary: String
        var relevance: Double

        /// `hidden`: its preview was hidden, so the listing says its placeholder.
        init(_ notification: Notification, hidden: Bool = false) {
            id = notification.id
            app = notification.request.appName
            summary = hidden ? HiddenPreview.body(for: notification.request) : notification.request.summary
            relevance = notification.request.hints.relevance ?? 0.5
        }
    }

    /// The summary's text: the top notification featured, then one line per app, apps in the
    /// order of their most relevant notification.
    public static func text(for notifications: [Notification]) -> (summary: String, body: String) {
        let count = notifications.count
        return (trn("Scheduled Summary: {n} notification", "Scheduled Summary: {n} notifications", count), listing(notifications.map { Item($0) }))
    }

    /// The lines of a summary: the most relevant (then newest) featured, then each app's others,
    /// so each notification is said once.
    static func listing(_ items: [Item]) -> String {
        let ordered = items.sorted { comesFirst(($0.relevance, $0.id), ($1.relevance, $1.id)) }
        guard let top = ordered.first else { return "" }
        var apps: [String] = []
        var byApp: [String: [Item]] = [:]
        for item in ordered.dropFirst() {
            if byApp[item.app] == nil { apps.append(item.app) }
            byApp[item.app, default: []].append(item)
        }
        var lines = ["<b>\(escape(top.app)): \(escape(top.summary))</b>"]
        for app in apps {
            let items = byApp[app]!
            let count = app == top.app ? "\(items.count) more" : "\(items.count)"
            lines.append("\(escape(app)) (\(count)): " + items.prefix(3).map { escape($0.summary) }.joined(separator: "; ")
                         + (items.count > 3 ? "; …" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// Summaries are plain text; bodies carry markup, so text going into one is escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
