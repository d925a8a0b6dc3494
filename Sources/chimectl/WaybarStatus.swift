import ChimeCore
import ChimeDBus

/// What `chimectl watch --waybar` shows: the unread total, per-app counts and the Focus,
/// as one Waybar custom-module JSON object. `alt` and `class` use swaync's names
/// (notification, none, dnd-notification, dnd-none), so existing Waybar configs work.
struct WaybarStatus {
    var unread = 0
    var badges: [String: Int64] = [:]
    /// The active Focus's name, and the name people read ("Do Not Disturb" for "dnd"; the
    /// name itself where chimed gave none).
    var focus = "", focusDisplayName = ""

    /// Takes a BadgesChanged or FocusChanged signal into account; false for anything else.
    mutating func update(with message: Message) -> Bool {
        let arguments = message.arguments
        switch message.member {
        case "BadgesChanged" where arguments.count == 2:
            for badge in arguments[0].records { take(badge) }
            unread = Int(arguments[1].integer ?? 0)
        case "FocusChanged" where !arguments.isEmpty:
            focus = arguments[0].string ?? ""
            focusDisplayName = arguments.count > 1 ? arguments[1].vardictEntries?["display-name"]?.string ?? "" : ""
        default:
            return false
        }
        return true
    }

    mutating func take(_ badge: [String: BusValue]) {
        guard let app = badge["app"]?.string else { return }
        badges[app] = (badge["count"]?.integer ?? 0) > 0 ? badge["count"]?.integer : nil
    }

    var line: String {
        let kind = (focus.isEmpty ? "" : "dnd-") + (unread > 0 ? "notification" : "none")
        var tooltip = unread == 0 ? tr("No unread notifications") : trn("{n} unread", "{n} unread", unread)
        for (app, count) in badges.sorted(by: { $0.key < $1.key }) { tooltip += "\n\(app): \(count)" }
        if !focus.isEmpty { tooltip += "\n" + tr("Focus: {name}", ["name": focusDisplayName.isEmpty ? focus : focusDisplayName]) }
        return JSONText.object([("text", .string(String(unread))), ("alt", .string(kind)),
                                ("tooltip", .string(tooltip)), ("class", .string(kind))])
    }
}
