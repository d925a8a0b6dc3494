import ChimeCore
import ChimeDBus
import Glibc

/// `chimectl focus ...` and `chimectl dnd ...`.
enum FocusCommands {
    static func focus(_ arguments: inout Arguments) throws(CommandLineError) {
        switch arguments.next() {
        case "list": try list(&arguments)
        case "on":
            guard let name = arguments.next() else { throw .usage(tr("focus on needs a Focus name (see chimectl focus list)")) }
            let options = try timing(&arguments)
            try arguments.done()
            _ = try ControlClient().call("FocusOn", [.string(name), .vardict(options)])
        case "off":
            try arguments.done()
            _ = try ControlClient().call("FocusOff")
        case "status": try status(&arguments)
        case "inhibit": try inhibit(&arguments)
        case let other:
            throw .usage(other.map { tr("unknown focus command '{command}'", ["command": $0]) } ?? tr("focus needs list, on, off, status or inhibit"))
        }
    }

    /// `chimectl dnd on|off|toggle|status`: silent on success, as every command that changes
    /// something; `status` says it, and exits 0 while Do Not Disturb is on and 1 when not (as
    /// `dunstctl is-paused -e`).
    static func dnd(_ arguments: inout Arguments) throws(CommandLineError) {
        let command = arguments.next()
        try arguments.done()
        let client = try ControlClient()
        let focus = try client.call("FocusStatus").first?.vardictEntries?["active"]?.string ?? ""
        let wasOn = focus == FocusMode.doNotDisturb
        switch (command, wasOn) {
        case ("on", false), ("toggle", false): _ = try client.call("FocusOn", [.string(FocusMode.doNotDisturb), .vardict([])])
        case ("off", true), ("toggle", true): _ = try client.call("FocusOff")
        case ("on", true), ("off", false), ("status", _): break
        default: throw .usage(tr("dnd needs on, off, toggle or status"))
        }
        guard command == "status" else { return }
        let on = focus == FocusMode.doNotDisturb
        print(on ? tr("Do Not Disturb: on") : focus.isEmpty ? tr("Do Not Disturb: off") : tr("Do Not Disturb: off (Focus {name} is on)", ["name": focus]))
        if !on { exit(1) }
    }

    /// `chimectl sharing on|off|status`: for a screencast portal's hooks (xdg-desktop-portal-wlr's
    /// `exec_before` and `exec_after`). `status` exits 0 while the screen is shared, 1 when not.
    static func sharing(_ arguments: inout Arguments) throws(CommandLineError) {
        let command = arguments.next()
        try arguments.done()
        let client = try ControlClient()
        switch command {
        case "on", "off":
            return _ = try client.call("SetSharing", [.bool(command == "on")])
        case "status":
            break
        default: throw .usage(tr("sharing needs on, off or status"))
        }
        let sharing = try client.call("FocusStatus").first?.vardictEntries?["sharing"]?.bool ?? false
        print(sharing ? tr("sharing: on (only critical notifications show, their previews hidden)") : tr("sharing: off"))
        if !sharing { exit(1) }
    }

    /// `--for DURATION` or `--until HH:MM`, checked here so mistakes get the usage (exit 2).
    private static func timing(_ arguments: inout Arguments) throws(CommandLineError) -> [(String, BusValue)] {
        if let text = try arguments.option("--for") {
            guard let seconds = DurationText.seconds(text) else { throw .usage(tr("'{text}' is not a duration like 45m, 1h30m or 90s", ["text": text])) }
            return [("for-seconds", .uint32(UInt32(seconds)))]
        }
        if let text = try arguments.option("--until") {
            guard ClockTime(parsing: text) != nil else { throw .usage(tr("'{text}' is not a time HH:MM", ["text": text])) }
            return [("until", .string(text))]
        }
        return []
    }

    private static func list(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        let modes = try ControlClient().records("FocusList")
        if json { print(JSONOutput.list(modes)); return }
        // The schedule's cell is kept when empty, so "(active)" is always the third column.
        var table = TextTable("FOCUS", "SCHEDULE", "")
        for mode in modes {
            table.add([mode["name"]?.string ?? "", (mode["schedules"]?.strings ?? []).joined(separator: "; "),
                       mode["active"]?.bool == true ? "(active)" : ""])
        }
        table.print()
    }

    private static func status(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        let status = try ControlClient().call("FocusStatus").first?.vardictEntries ?? [:]
        if json { print(JSONOutput.record(status)); return }
        let active = status["active"]?.string ?? ""
        guard !active.isEmpty else { print(tr("Focus: off")); return }
        let values: [String: any CustomStringConvertible] = ["name": status["display-name"]?.string ?? active, "source": status["source"]?.string ?? ""]
        if let until = status["until"]?.integer, until > 0 {
            print(tr("Focus: {name} ({source}), until {time}", values.merging(["time": LocalTimeText.short(until)]) { $1 }))
        } else {
            print(tr("Focus: {name} ({source})", values))
        }
    }

    /// Holds the Focus while COMMAND runs; the inhibitor ends with this process's connection
    /// even if it is killed. Exits with the command's status.
    private static func inhibit(_ arguments: inout Arguments) throws(CommandLineError) {
        let (before, command) = arguments.splitAtDoubleDash()
        guard !command.isEmpty else { throw .usage(tr("focus inhibit needs -- COMMAND")) }
        var named = Arguments(before)
        let focus = named.next() ?? FocusMode.doNotDisturb
        try named.done()
        let client = try ControlClient()
        guard case .uint32(let cookie)? = try client.call("Inhibit", [.string("chimectl"), .string(command.joined(separator: " ")),
                                                                       .vardict([("focus", .string(focus))])]).first else {
            throw .failure(tr("chimed gave no inhibitor cookie"))
        }
        let status = ChildCommand.run(command)?.status
        _ = try? client.call("UnInhibit", [.uint32(cookie)])
        guard let status else { throw .failure(tr("cannot run {value}", ["value": command[0]]), exitCode: 127) }
        exit(status)
    }
}
