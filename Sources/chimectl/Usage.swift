import ChimeCore

/// `chimectl help`, and the lines of one command under a mistake. A command's syntax is the
/// same in every language; what it does is said in the person's.
enum Usage {
    /// A command's syntax (its first words name it), and what it does.
    struct Entry {
        var syntax: [String]
        var meaning: String

        init(_ syntax: [String], _ meaning: String) {
            (self.syntax, self.meaning) = (syntax, meaning)
        }

        var words: [String] { syntax[0].split(separator: " ").map(String.init) }

        /// Its syntax two spaces in, its meaning from the 28th column, wrapped at 100.
        var lines: String {
            var out = syntax.enumerated().map { "  " + ($0.offset == 0 ? "" : "        ") + $0.element }
            var line = ""
            for word in meaning.split(separator: " ") {
                if !line.isEmpty, TextTable.width(line) + 1 + TextTable.width(String(word)) > 72 {
                    out.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            if !line.isEmpty { out.append(line) }
            let first = out[syntax.count - 1]
            // The meaning beside the syntax where it fits, else below it.
            if syntax.count == 1, out.count > 1, TextTable.width(first) < 26 {
                out[0] = first.padding(to: 27) + out[1]
                out.remove(at: 1)
            }
            return out.enumerated().map { index, text in
                index < syntax.count ? text : String(repeating: " ", count: 27) + text
            }.joined(separator: "\n")
        }
    }

    static let entries: [Entry] = [
        Entry(["status [--json]"], tr("whether chimed runs, its version and open notifications")),
        Entry(["list [--json]"], tr("open notifications, oldest first")),
        Entry(["history [--app APP] [--thread T] [--state STATE] [--search TEXT] [--since DURATION]", "[--limit N] [--json]"], tr("the notification center, newest first (kept across restarts); STATE is a state name or unread; --search: TEXT in the summary, body or app name; --since 2h: the last two hours")),
        Entry(["show ID [--json]"], tr("one notification from the center, open or closed")),
        Entry(["why ID [--json]"], tr("why it did or did not interrupt: the decision's reasons, in order")),
        Entry(["replay [--since 7d] [--config FILE] [--json]"], tr("what the running config (or FILE) would have done with the center's notifications: per app, and each that would change")),
        Entry(["invoke [ID [KEY]]"], tr("choose an action, as a click would (the default action without KEY); works on closed notifications while their app is running; without ID, the newest banner's default action")),
        Entry(["menu [ID] -- PROGRAM [ARGS]"], tr("offer a notification's actions in a menu program (wofi -d, rofi -dmenu, fuzzel -d, dmenu) and invoke the one chosen; without ID, the newest banner's")),
        Entry(["reply ID TEXT"], tr("answer a notification that offers an inline reply")),
        Entry(["dismiss [ID | --all | --app APP]"], tr("close notifications as the user (reason 2): one, all, or an app's; without ID, the newest banner")),
        Entry(["read ID... | --app APP | --all"], tr("mark notifications read; badges drop")),
        Entry(["restore [ID]"], tr("present a notification from the center again; without ID, the one closed last")),
        Entry(["snooze ID DURATION"], tr("take a notification away and present it again later (10m, 1h)")),
        Entry(["delete ID"], tr("delete a notification from the center")),
        Entry(["clear [--app APP]"], tr("delete the center's notifications, of one app or all")),
        Entry(["center open|close|toggle"], tr("the Notification Center panel (bind it to a key or a bar's click)")),
        Entry(["badges [--json]"], tr("unread count per app, as docks show it")),
        Entry(["players [--json]"], tr("media players on the bus (MPRIS) and what each plays")),
        Entry(["player play-pause|play|pause|next|previous|stop [PLAYER]"], tr("control a player (default: the one playing, else the first)")),
        Entry(["report [--since DURATION|today] [--json]"], tr("what reached you per app: interruptions (banners and sounds) today and over the span (default 7d), updates, held, quiet")),
        Entry(["watch [--waybar]"], tr("print one JSON object per line for each presented, withdrawn or closed notification, badge, Focus and player change; --waybar prints Waybar custom-module JSON (text, alt, tooltip, class)")),
        Entry(["focus list [--json]"], tr("Focus modes from the config, and dnd")),
        Entry(["focus on NAME [--for DURATION | --until HH:MM]"], tr("turn a Focus on (DURATION like 45m, 1h30m)")),
        Entry(["focus off"], tr("turn the Focus off (a scheduled one until its span ends)")),
        Entry(["focus status [--json]"], tr("the active Focus, why, and until when")),
        Entry(["focus inhibit [NAME] -- COMMAND [ARGS]"], tr("run COMMAND with a Focus on (default dnd)")),
        Entry(["dnd on|off|toggle|status"], tr("Do Not Disturb; status exits 0 while it is on, 1 when not")),
        Entry(["sharing on|off|status"], tr("the screen is shared: only critical notifications show, previews hidden (for a screencast portal's exec_before/exec_after hooks)")),
        Entry(["apps list [--json]"], tr("apps Chime knows and their main settings")),
        Entry(["apps show APP [--json]"], tr("every setting of an app")),
        Entry(["apps set APP KEY=VALUE"], tr("change a setting; kept across restarts")),
        Entry(["rules [--json]"], tr("the config's rules, how often each matched, what they match and change")),
        Entry(["rule NAME enable|disable|toggle"], tr("turn a rule off or on until chimed restarts")),
        Entry(["mute on|off|toggle|status"], tr("silence every sound but critical; kept across restarts; status exits 0 while muted, 1 when not")),
        Entry(["count [--unread]"], tr("how many notifications are open (unread in the center)")),
        Entry(["summary list [--json]"], tr("what waits for the next scheduled summary")),
        Entry(["summary now"], tr("deliver the summary now")),
        Entry(["reload"], tr("reread the config file; a bad line is left out and said (exit 1)")),
        Entry(["help"], tr("print this help")),
    ]

    static var text: String {
        tr("usage: chimectl COMMAND [ARGUMENTS]") + "\n       chimectl --version\n\n" + tr("commands:") + "\n"
            + entries.map(\.lines).joined(separator: "\n") + "\n\n"
            + tr("exit status: 0 success, 1 chimed refused or is not running, 2 bad arguments")
    }

    /// What to print under a mistake in `arguments`: the lines of `text` for the command they
    /// name (and its subcommand, where they name one), or all of `text` when they name none.
    /// A mistake's message stays in sight above a few lines rather than forty.
    static func text(for arguments: [String]) -> String {
        let ofCommand = entries.filter { $0.words.first == arguments.first }
        guard !ofCommand.isEmpty else { return text }
        let ofSubcommand = ofCommand.filter { arguments.count > 1 && $0.words.dropFirst().first == arguments[1] }
        let shown = ofSubcommand.isEmpty ? ofCommand : ofSubcommand
        return tr("usage:") + "\n" + shown.map(\.lines).joined(separator: "\n") + "\n\n" + tr("'chimectl help' lists every command.")
    }
}

extension String {
    /// Spaces after it up to `width` columns (wide characters count as two).
    func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(1, width - TextTable.width(self)))
    }
}
