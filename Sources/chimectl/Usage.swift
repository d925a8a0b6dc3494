enum Usage {
    static let text = """
    usage: chimectl COMMAND [ARGUMENTS]
           chimectl --version

    commands:
      status [--json]          whether chimed runs, its version and open notifications
      list [--json]            open notifications, oldest first
      history [--app APP] [--thread T] [--state STATE] [--search TEXT] [--since DURATION]
              [--limit N] [--json]
                               the notification center, newest first (kept across restarts);
                               STATE is a state name or unread; --search: TEXT in the summary,
                               body or app name; --since 2h: the last two hours'
      show ID [--json]         one notification from the center, open or closed
      why ID [--json]          why it did or did not interrupt: the decision's reasons, in order
      replay [--since 7d] [--config FILE] [--json]
                               what the running config (or FILE) would have done with the
                               center's notifications: per app, and each that would change
      invoke [ID [KEY]]        choose an action, as a click would (the default action without KEY);
                               works on closed notifications while their app is running; without
                               ID, the newest banner's default action
      menu [ID] -- PROGRAM [ARGS]
                               offer a notification's actions in a menu program (wofi -d,
                               rofi -dmenu, fuzzel -d, dmenu) and invoke the one chosen; without
                               ID, the newest banner's
      reply ID TEXT            answer a notification that offers an inline reply
      dismiss [ID | --all | --app APP]
                               close notifications as the user (reason 2): one, all, or an app's;
                               without ID, the newest banner
      read ID... | --app APP | --all
                               mark notifications read; badges drop
      restore [ID]             present a notification from the center again; without ID, the one
                               closed last
      snooze ID DURATION       take a notification away and present it again later (10m, 1h)
      delete ID                delete a notification from the center
      clear [--app APP]        delete the center's notifications, of one app or all
      center open|close|toggle the Notification Center panel (bind it to a key or a bar's click)
      badges [--json]          unread count per app, as docks show it
      players [--json]         media players on the bus (MPRIS) and what each plays
      player play-pause|play|pause|next|previous|stop [PLAYER]
                               control a player (default: the one playing, else the first)
      report [--since DURATION|today] [--json]
                               what reached you per app: interruptions (banners and sounds)
                               today and over the span (default 7d), updates, held, quiet
      watch [--waybar]         print one JSON object per line for each presented, withdrawn or
                               closed notification, badge, Focus and player change; --waybar
                               prints Waybar custom-module JSON (text, alt, tooltip, class)
      focus list [--json]      Focus modes from the config, and dnd
      focus on NAME [--for DURATION | --until HH:MM]
                               turn a Focus on (DURATION like 45m, 1h30m)
      focus off                turn the Focus off (a scheduled one until its span ends)
      focus status [--json]    the active Focus, why, and until when
      focus inhibit [NAME] -- COMMAND [ARGS]
                               run COMMAND with a Focus on (default dnd)
      dnd on|off|toggle|status Do Not Disturb; status exits 0 while it is on, 1 when not
      sharing on|off|status    the screen is shared: only critical notifications show, previews
                               hidden (for a screencast portal's exec_before/exec_after hooks)
      apps list [--json]       apps Chime knows and their main settings
      apps show APP [--json]   every setting of an app
      apps set APP KEY=VALUE   change a setting; kept across restarts
      rules [--json]           the config's rules, how often each matched, what they match and change
      rule NAME enable|disable|toggle
                               turn a rule off or on until chimed restarts
      mute on|off|toggle|status
                               silence every sound but critical; kept across restarts; status
                               exits 0 while muted, 1 when not
      count [--unread]         how many notifications are open (unread in the center)
      summary list [--json]    what waits for the next scheduled summary
      summary now              deliver the summary now
      reload                   reread the config file; a bad line is left out and said (exit 1)
      help                     print this help

    exit status: 0 success, 1 chimed refused or is not running, 2 bad arguments
    """

    /// What to print under a mistake in `arguments`: the lines of `text` for the command they
    /// name (and its subcommand, where they name one), or all of `text` when they name none.
    /// A mistake's message stays in sight above a few lines rather than forty.
    static func text(for arguments: [String]) -> String {
        let ofCommand = entries.filter { $0.words.first == arguments.first }
        guard !ofCommand.isEmpty else { return text }
        let ofSubcommand = ofCommand.filter { arguments.count > 1 && $0.words.dropFirst().first == arguments[1] }
        let shown = ofSubcommand.isEmpty ? ofCommand : ofSubcommand
        return "usage:\n" + shown.map { $0.lines }.joined(separator: "\n") + "\n\n'chimectl help' lists every command."
    }

    /// One command's lines of `text`, and the words it starts with.
    private struct Entry {
        var words: [String]
        var lines: String
    }

    /// The entries under "commands:": each starts with a line indented two spaces, and lines
    /// indented further continue it.
    private static let entries: [Entry] = {
        var entries: [Entry] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "commands:") else { return [] }
        for line in lines[(start + 1)...] {
            if line.hasPrefix("    "), !entries.isEmpty {
                entries[entries.count - 1].lines += "\n" + line
            } else if line.hasPrefix("  ") {
                entries.append(Entry(words: line.split(separator: " ").map(String.init), lines: String(line)))
            } else {
                break
            }
        }
        return entries
    }()
}
