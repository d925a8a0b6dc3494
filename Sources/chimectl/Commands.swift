import ChimeCore
import ChimeDBus
import Glibc

/// One function per subcommand; each takes its own arguments.
enum Commands {
    static func run(_ arguments: [String]) throws(CommandLineError) {
        guard let command = arguments.first else { throw .usage(tr("no command given")) }
        var rest = Arguments(Array(arguments.dropFirst()))
        switch command {
        case "status": try status(&rest)
        case "list": try list(&rest)
        case "invoke": try invoke(&rest)
        case "menu": try menu(&rest)
        case "reply": try reply(&rest)
        case "dismiss": try dismiss(&rest)
        case "watch": try watch(&rest)
        case "focus": try FocusCommands.focus(&rest)
        case "dnd": try FocusCommands.dnd(&rest)
        case "sharing": try FocusCommands.sharing(&rest)
        case "apps": try AppCommands.apps(&rest)
        case "rules": try RuleCommands.rules(&rest)
        case "rule": try RuleCommands.rule(&rest)
        case "summary": try summary(&rest)
        case "mute": try mute(&rest)
        case "count": try count(&rest)
        case "--version", "version":
            try rest.done()
            print("chimectl \(ChimeVersion.string)")
        case "history": try history(&rest)
        case "show": try CenterCommands.show(&rest)
        case "why": try CenterCommands.why(&rest)
        case "read": try CenterCommands.read(&rest)
        case "restore": try CenterCommands.restore(&rest)
        case "snooze": try CenterCommands.snooze(&rest)
        case "delete": try CenterCommands.delete(&rest)
        case "clear": try CenterCommands.clear(&rest)
        case "badges": try CenterCommands.badges(&rest)
        case "report": try ReportCommand.report(&rest)
        case "replay": try ReplayCommand.replay(&rest)
        case "center": try center(&rest)
        case "players": try PlayerCommands.players(&rest)
        case "player": try PlayerCommands.player(&rest)
        case "reload": try reload(&rest)
        case "help", "--help", "-h": print(Usage.text)
        default: throw .usage(tr("unknown command '{command}'", ["command": command]))
        }
    }

    /// The problems of the reloaded config go to stderr, and make the exit status 1: the rest of
    /// the file is in force.
    static func reload(_ arguments: inout Arguments) throws(CommandLineError) {
        try arguments.done()
        let problems = try ControlClient().call("Reload").first?.strings ?? []
        guard problems.isEmpty else { throw .failure(configProblems(problems)) }
    }

    static func configProblems(_ problems: [String]) -> String {
        trn("config: {n} problem, left out; the rest is in force:", "config: {n} problems, each left out; the rest is in force:", problems.count)
            + problems.map { "\n  " + $0.withoutControlCharacters() }.joined()
    }

    static func status(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        let status = try ControlClient().call("GetStatus").first?.vardictEntries ?? [:]
        if json {
            print(JSONOutput.record(status))
        } else {
            print(tr("chimed {version} is running (pid {pid})", ["version": status["version"]?.string ?? "?", "pid": status["pid"]?.integer ?? 0]))
            let problems = status["config-problems"]?.strings ?? []
            if problems.isEmpty {
                print(tr("config: {path}", ["path": (status["config"]?.string ?? "").withoutControlCharacters()]))
            } else {
                print(configProblems(problems))
            }
            print(tr("open notifications: {n}", ["n": status["open"]?.integer ?? 0]))
            print(tr("unread in the center: {n}", ["n": status["unread"]?.integer ?? 0]))
            let focus = status["focus"]?.string ?? ""
            print(focus.isEmpty ? tr("focus: off") : tr("focus: {name}", ["name": focus]))
            print(status["muted"]?.bool == true ? tr("sound: muted") : tr("sound: on"))
            print(status["sharing"]?.bool == true ? tr("screen sharing: on (from KDE's inhibitions and chimectl sharing)")
                                                  : tr("screen sharing: off (from KDE's inhibitions and chimectl sharing)"))
            if let source = status["desktop"]?.string, !source.isEmpty {
                let app = (status["focused-app"]?.string ?? "").withoutControlCharacters()
                let values: [String: any CustomStringConvertible] = ["app": app.isEmpty ? tr("none") : app, "source": source]
                print(status["fullscreen"]?.bool == true ? tr("focused app: {app}, fullscreen (from {source})", values)
                                                         : tr("focused app: {app} (from {source})", values))
            } else {
                print(tr("focused app and fullscreen: not followed: {problem}; the foreground and fullscreen rules do not apply",
                         ["problem": (status["desktop-problem"]?.string ?? tr("see chimed's log")).withoutControlCharacters()]))
            }
            switch status["banners"]?.string {
            case "on":
                let program = status["banner-program"]?.string == "chime-presenter" ? "chime-presenter (GTK)" : "chime-banners"
                print(status["presenter-running"]?.bool == false ? tr("banners: on, drawn by {program} (it starts with the next one)", ["program": program])
                                                                 : tr("banners: on, drawn by {program}", ["program": program]))
            case "off": print(tr("banners: off ([popups] enabled = false)"))
            case "no-display": print(tr("banners: none: chimed has no display (WAYLAND_DISPLAY, DISPLAY); see its log"))
            case "ended": print(tr("banners: none: the banner presenter ended (see chimed's log)"))
            case "awaiting-display": print(tr("banners: none: the display went away; they come back when it does"))
            case "restarting": print(tr("banners: restarting: the banner presenter crashed and is started again shortly (see chimed's log)"))
            default: break
            }
            switch status["history"]?.string {
            case "kept": print(tr("history: kept"))
            case "not-kept": print(tr("history: not kept: {problem}", ["problem": (status["history-problem"]?.string ?? tr("see chimed's log")).withoutControlCharacters()]))
            case "off": print(tr("history: off (chimed runs with --no-history, or its store could not be opened; see its log)"))
            default: break
            }
        }
    }

    static func list(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        printNotifications(try ControlClient().notifications(), json: json)
    }

    static func history(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        var filter: [(String, BusValue)] = []
        if let app = try arguments.option("--app") { filter.append(("app", .string(app))) }
        if let thread = try arguments.option("--thread") { filter.append(("thread", .string(thread))) }
        if let state = try arguments.option("--state") {
            guard NotificationState.centerStates.contains(state) else { throw .usage(tr("'{state}' is not a state: ", ["state": state]) + NotificationState.centerStates.joined(separator: ", ")) }
            filter.append(("state", .string(state)))
        }
        if let text = try arguments.option("--search") {
            guard !text.isEmpty else { throw .usage(tr("--search needs some text")) }
            filter.append(("text", .string(text)))
        }
        if let text = try arguments.option("--since") {
            guard let seconds = DurationText.seconds(text), seconds > 0, seconds <= Int64(UInt32.max) else {
                throw .usage(tr("--since takes a duration such as 30m, 2h or 7d, not '{text}'", ["text": text]))
            }
            filter.append(("since-seconds", .uint32(UInt32(seconds))))
        }
        var limit = 50
        if let text = try arguments.option("--limit") {
            guard let number = Int(text), (1...10_000).contains(number) else { throw .usage(tr("--limit takes 1 to 10000, not '{text}'", ["text": text])) }
            limit = number
        }
        try arguments.done()
        let entries = try ControlClient().pages("History", filter, limit: limit)
        if json {
            print(JSONOutput.list(entries))
            return
        }
        if entries.isEmpty { TextTable.printEmpty(tr("no notifications in the history")); return }
        var table = TextTable("ID", "TIME", "APP", "LEVEL", "STATE", "UNREAD", "SUMMARY")
        for entry in entries {
            let created = entry["created"]?.integer.map { LocalTimeText.short($0) } ?? ""
            var cells = ["id", "created", "app-name", "level", "state", "unread", "summary"].map { key in
                switch key {
                case "created": created
                case "unread": entry["unread"]?.bool == true ? "unread" : ""
                default: (entry[key].map { $0.string ?? $0.integer.map(String.init) ?? "" } ?? "").withoutControlCharacters()
                }
            }
            // As dunst shows stacked duplicates: the count after the summary.
            if let count = entry["repeat-count"]?.integer { cells[cells.count - 1] += " (\(count)x)" }
            table.add(cells)
        }
        table.print()
    }

    /// `chimectl center open|close|toggle`: the panel, for a key binding or a bar's click.
    static func center(_ arguments: inout Arguments) throws(CommandLineError) {
        guard let how = arguments.next(), ["open", "close", "toggle"].contains(how) else {
            throw .usage(tr("center takes open, close or toggle"))
        }
        try arguments.done()
        _ = try ControlClient().call("ShowCenter", [.string(how)])
    }

    /// `chimectl mute on|off|toggle|status`, said as `dnd` says it; `status` exits 0 while muted.
    static func mute(_ arguments: inout Arguments) throws(CommandLineError) {
        let command = arguments.next()
        try arguments.done()
        let client = try ControlClient()
        let wasMuted = try client.call("GetStatus").first?.vardictEntries?["muted"]?.bool ?? false
        let muted: Bool
        switch command {
        case "on": muted = true
        case "off": muted = false
        case "toggle": muted = !wasMuted
        case "status": muted = wasMuted
        default: throw .usage(tr("mute needs on, off, toggle or status"))
        }
        guard command == "status" else { return _ = try client.call("SetMuted", [.bool(muted)]) }
        print(muted ? "mute: on (critical notifications still sound)" : "mute: off")
        if !muted { exit(1) }
    }

    /// `chimectl count [--unread]`: how many notifications are open, or unread in the center,
    /// as a bare number for scripts (as `dunstctl count`).
    static func count(_ arguments: inout Arguments) throws(CommandLineError) {
        let unread = arguments.flag("--unread")
        try arguments.done()
        let status = try ControlClient().call("GetStatus").first?.vardictEntries ?? [:]
        print(status[unread ? "unread" : "open"]?.integer ?? 0)
    }

    static func summary(_ arguments: inout Arguments) throws(CommandLineError) {
        switch arguments.next() {
        case "list":
            let json = arguments.flag("--json")
            try arguments.done()
            let waiting = try ControlClient().pages("SummaryList")
            if !json && waiting.isEmpty { TextTable.printEmpty(tr("nothing is waiting for the summary")); return }
            printNotifications(waiting, json: json)
        case "now":
            try arguments.done()
            _ = try ControlClient().call("SummaryNow")
        case let other:
            throw .usage(other.map { tr("unknown summary command '{command}'", ["command": $0]) } ?? tr("summary needs list or now"))
        }
    }

    static func printNotifications(_ notifications: [[String: BusValue]], json: Bool) {
        if json {
            print(JSONOutput.list(notifications))
            return
        }
        if notifications.isEmpty { TextTable.printEmpty(tr("no notifications")); return }
        var table = TextTable("ID", "TIME", "APP", "LEVEL", "STATE", "UNREAD", "SUMMARY", "ACTIONS")
        for notification in notifications {
            let actions = Action.pairs(notification["actions"]?.strings ?? []).map { $0.key.withoutControlCharacters() }
            table.add([
                String(notification["id"]?.integer ?? 0),
                notification["created"]?.integer.map { LocalTimeText.short($0) } ?? "",
                (notification["app-name"]?.string ?? "").withoutControlCharacters(),
                notification["level"]?.string ?? "",
                notification["state"]?.string ?? "",
                notification["unread"]?.bool == true ? "unread" : "",
                (notification["summary"]?.string ?? "").withoutControlCharacters(),
                actions.isEmpty ? "" : "[" + actions.joined(separator: ", ") + "]",
            ])
        }
        table.print()
    }

    static func invoke(_ arguments: inout Arguments) throws(CommandLineError) {
        let given = arguments.isEmpty ? nil : try arguments.id()
        let key = arguments.next() ?? ""
        try arguments.done()
        let client = try ControlClient()
        // Without an ID: the newest banner's default action, as a click on it would.
        let id = if let given { given } else { try client.newestPresented() }
        _ = try client.call("Invoke", [.uint32(id), .string(key)])
    }

    /// `menu [ID] -- PROGRAM [ARGS]`: a notification's actions (the newest banner's without ID)
    /// offered in a menu program such as `wofi -d`, `rofi -dmenu`, `fuzzel -d` or `dmenu`, one
    /// label a line; the one chosen is invoked, as `makoctl menu` and `dunstctl context` do.
    static func menu(_ arguments: inout Arguments) throws(CommandLineError) {
        let (before, command) = arguments.splitAtDoubleDash()
        guard !command.isEmpty else { throw .usage(tr("menu needs -- PROGRAM, such as -- wofi -d")) }
        var named = Arguments(before)
        let given = named.isEmpty ? nil : try named.id()
        try named.done()
        let client = try ControlClient()
        let id = if let given { given } else { try client.newestPresented() }
        // An open notification from the list; a closed one from the center.
        var record = try client.notifications().first { $0["id"]?.integer == Int64(id) }
        if record == nil { record = try client.call("Show", [.uint32(id)]).first?.vardictEntries }
        let actions = Action.pairs(record?["actions"]?.strings ?? [])
        guard !actions.isEmpty else { throw .failure(tr("notification {id} has no actions", ["id": id])) }
        let choices = actions.map { ($0.label.isEmpty ? $0.key : $0.label).withoutControlCharacters() }
        guard let chosen = ChildCommand.run(command, input: choices.joined(separator: "\n") + "\n") else {
            throw .failure(tr("cannot run {value}", ["value": command[0]]), exitCode: 127)
        }
        // Escape in a menu program: a failure status, or no line.
        let line = chosen.output.split(separator: "\n").first.map(String.init)
        guard chosen.status == 0, let line, let index = choices.firstIndex(of: line) else { throw .failure(tr("no action was chosen")) }
        _ = try client.call("Invoke", [.uint32(id), .string(actions[index].key)])
    }

    static func reply(_ arguments: inout Arguments) throws(CommandLineError) {
        let id = try arguments.id()
        guard let text = arguments.next() else { throw .usage(tr("reply needs the text to send")) }
        try arguments.done()
        _ = try ControlClient().call("Reply", [.uint32(id), .string(text)])
    }

    static func dismiss(_ arguments: inout Arguments) throws(CommandLineError) {
        if arguments.flag("--all") {
            try arguments.done()
            _ = try ControlClient().call("DismissAll")
            return
        }
        if let app = try arguments.option("--app") {
            try arguments.done()
            _ = try ControlClient().call("DismissApp", [.string(app)])
            return
        }
        let given = arguments.isEmpty ? nil : try arguments.id()
        try arguments.done()
        let client = try ControlClient()
        let id = if let given { given } else { try client.newestPresented() }
        _ = try client.call("Dismiss", [.uint32(id)])
    }

    /// Streams events until chimed's bus goes away; one JSON object per line, flushed at once.
    /// The first line is the state now (unread total, badges, Focus); with --waybar every line
    /// is Waybar's custom-module JSON.
    static func watch(_ arguments: inout Arguments) throws(CommandLineError) {
        let waybar = arguments.flag("--waybar")
        try arguments.done()
        let client = try ControlClient()
        do {
            try client.connection.addMatch("type='signal',interface='\(ControlClient.name)',path='\(ControlClient.path)'")
            try client.connection.addMatch("type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'")
        } catch {
            throw .failure(error.message)
        }
        // Subscribed first, then read: a change in between is not lost, at worst printed twice.
        let status = try client.call("GetStatus").first?.vardictEntries ?? [:]
        var state = WaybarStatus()
        state.focus = status["focus"]?.string ?? ""
        if waybar, !state.focus.isEmpty {
            state.focusDisplayName = try client.call("FocusStatus").first?.vardictEntries?["display-name"]?.string ?? ""
        }
        state.unread = Int(status["unread"]?.integer ?? 0)
        let badges = try client.records("GetBadges")
        for badge in badges { state.take(badge) }
        emit(waybar ? state.line : JSONText.object([
            ("event", .string("state")), ("unread", .uint32(UInt32(state.unread))), ("focus", .string(state.focus)),
            ("badges", .array(elementSignature: "a{sv}", badges.map { .vardict(ordered($0)) })),
        ]))
        client.connection.setHandler { message in
            guard message.kind == .signal else { return false }
            if waybar {
                if state.update(with: message) { emit(state.line) }
            } else if let line = WatchEvent.line(for: message) {
                emit(line)
            }
            return true
        }
        while client.connection.readWriteDispatch(timeoutMilliseconds: -1) {}
        throw .failure(tr("lost the session bus"))
    }

    private static func emit(_ line: String) {
        print(line)
        fflush(nil)  // all streams: naming stdout trips strict concurrency
    }

    /// Notification entries in a stable order: id first, then by name.
    static func ordered(_ entries: [String: BusValue]) -> [(String, BusValue)] {
        entries.sorted { ($0.key == "id" ? "" : $0.key) < ($1.key == "id" ? "" : $1.key) }.map { ($0.key, $0.value) }
    }
}
