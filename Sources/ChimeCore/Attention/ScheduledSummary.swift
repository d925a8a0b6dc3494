/// Scheduled summaries (the README's attention model): when a delivery time passes, and what the
/// summary says about the notifications it delivers.
public enum ScheduledSummary {
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
        notifications.sorted {
            let (left, right) = ($0.request.hints.relevance ?? 0.5, $1.request.hints.relevance ?? 0.5)
            return left != right ? left > right : $0.id > $1.id
        }
    }

    /// The summary's text: the top notification featured, then one line per app, apps in the
    /// order of their most relevant notification.
    public static func text(for notifications: [Notification]) -> (summary: String, body: String) {
        let ordered = ordered(notifications)
        guard let top = ordered.first else { return ("", "") }
        var apps: [String] = []
        var byApp: [String: [Notification]] = [:]
        for notification in ordered {
            let app = notification.request.appName
            if byApp[app] == nil { apps.append(app) }
            byApp[app, default: []].append(notification)
        }
        let count = notifications.count
        let summary = "Scheduled Summary: \(count) notification\(count == 1 ? "" : "s")"
        var lines = ["<b>\(top.request.appName): \(escape(top.request.summary))</b>"]
        for app in apps {
            let items = byApp[app]!
            lines.append("\(escape(app)) (\(items.count)): " + items.prefix(3).map { escape($0.request.summary) }.joined(separator: "; ")
                         + (items.count > 3 ? "; …" : ""))
        }
        return (summary, lines.joined(separator: "\n"))
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
