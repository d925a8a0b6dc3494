import ChimeCore
import ChimeDBus
import Glibc

/// The notification center from the shell: show, read, restore, snooze, delete, clear, badges.
enum CenterCommands {
    static func show(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        let id = try arguments.id()
        try arguments.done()
        let entry = try ControlClient().call("Show", [.uint32(id)]).first?.vardictEntries ?? [:]
        if json {
            print(JSONOutput.record(entry))
            return
        }
        for (key, value) in Commands.ordered(entry) {
            print("\(key): \(text(value, of: key).withoutControlCharacters(keepingLineBreaks: true))")
        }
    }

    /// The decision's reasons (design section 22): what answers "why didn't I see this?".
    static func why(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        let id = try arguments.id()
        try arguments.done()
        let entry = try ControlClient().call("Show", [.uint32(id)]).first?.vardictEntries ?? [:]
        let reasons = entry["reasons"]?.strings ?? []
        if json {
            print(JSONOutput.record(["id": .uint32(id), "state": entry["state"] ?? .string(""), "reasons": .stringArray(reasons)]))
            return
        }
        let app = entry["app-name"]?.string ?? ""
        print("\(id) \(app): \(entry["summary"]?.string ?? "") (\(entry["state"]?.string ?? ""))".withoutControlCharacters())
        for reason in reasons { print("  " + reason.withoutControlCharacters()) }
        if reasons.isEmpty { print("  " + tr("(no reasons kept: it came before chimed kept them)")) }
    }

    static func read(_ arguments: inout Arguments) throws(CommandLineError) {
        if arguments.flag("--all") {
            try arguments.done()
            _ = try ControlClient().call("ReadAll")
            return
        }
        if let app = try arguments.option("--app") {
            try arguments.done()
            _ = try ControlClient().call("ReadApp", [.string(app)])
            return
        }
        var ids: [UInt32] = [try arguments.id()]
        while let word = arguments.next() {
            guard let id = UInt32(word), id > 0 else { throw .usage(tr("'{word}' is not a notification ID", ["word": word])) }
            ids.append(id)
        }
        _ = try ControlClient().call("Read", [.array(elementSignature: "u", ids.map { .uint32($0) })])
    }

    static func restore(_ arguments: inout Arguments) throws(CommandLineError) {
        let given = arguments.isEmpty ? nil : try arguments.id()
        try arguments.done()
        let client = try ControlClient()
        let id = if let given { given } else { try client.lastClosed() }
        _ = try client.call("Restore", [.uint32(id)])
    }

    static func snooze(_ arguments: inout Arguments) throws(CommandLineError) {
        let id = try arguments.id()
        guard let text = arguments.next() else { throw .usage(tr("snooze needs a duration, like 10m or 1h")) }
        guard let seconds = DurationText.seconds(text) else { throw .usage(tr("'{text}' is not a duration, like 10m or 1h30m", ["text": text])) }
        try arguments.done()
        _ = try ControlClient().call("Snooze", [.uint32(id), .uint32(UInt32(seconds))])
    }

    static func delete(_ arguments: inout Arguments) throws(CommandLineError) {
        let id = try arguments.id()
        try arguments.done()
        _ = try ControlClient().call("Delete", [.uint32(id)])
    }

    static func clear(_ arguments: inout Arguments) throws(CommandLineError) {
        let app = try arguments.option("--app")
        try arguments.done()
        let filter: [(String, BusValue)] = app.map { [("app", .string($0))] } ?? []
        _ = try ControlClient().call("Clear", [.vardict(filter)])
    }

    static func badges(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        let badges = try ControlClient().records("GetBadges")
        if json {
            print(JSONOutput.list(badges))
            return
        }
        if badges.isEmpty { TextTable.printEmpty(tr("no unread notifications")); return }
        var table = TextTable("APP", "UNREAD")
        for badge in badges {
            table.add([(badge["app"]?.string ?? "").withoutControlCharacters(), String(badge["count"]?.integer ?? 0),
                       badge["visible"]?.bool == true ? "" : "(hidden)"])
        }
        table.print()
    }

    /// The entries of `show` that are unix milliseconds, printed as local date and time.
    private static let times: Set = ["created", "updated", "snoozed-until"]

    /// A value as `show` prints it: strings bare, times local, a close reason by name ("expired
    /// (1)"), actions as `key=label` (as notify-send's `--action` takes them), other lists
    /// comma-separated.
    private static func text(_ value: BusValue, of key: String) -> String {
        if key == "attachments" { return attachmentLines(Attachment.attachments(fromRecords: value)) }
        if times.contains(key), let milliseconds = value.integer { return LocalTimeText.full(milliseconds) }
        if key == "close-reason", let code = value.integer, let reason = CloseReason(rawValue: UInt32(clamping: code)) {
            return "\(reason.name) (\(code))"
        }
        if key == "urgency", let code = value.integer, let urgency = Urgency(rawValue: UInt8(clamping: code)) {
            return "\(urgency.name) (\(code))"
        }
        if key == "offers" {
            return value.records.map { offer in
                let actions = Action.pairs(offer["actions"]?.strings ?? []).map { "\($0.label): chimectl invoke ID \($0.key)" }
                return "\n  \(offer["text"]?.string ?? "") (\(actions.joined(separator: "; ")))"
            }.joined()
        }
        if key == "actions", let strings = value.strings {
            return Action.pairs(strings).map { "\($0.key)=\($0.label)" }.joined(separator: ", ")
        }
        if let string = value.string { return string }
        if let number = value.integer { return String(number) }
        if let flag = value.bool { return flag ? "yes" : "no" }
        if let strings = value.strings { return strings.joined(separator: ", ") }
        return JSONText.encode(value)
    }

    /// One line each: what it is, how big, and where Chime keeps it (or that it is gone: its
    /// app's quota made room for newer ones).
    private static func attachmentLines(_ attachments: [Attachment]) -> String {
        attachments.map { attachment in
            let gone = access(attachment.path, F_OK) == 0 ? "" : " (deleted: its app's attachments were over their quota)"
            return "\n  \(attachment.name): \(attachment.kind.rawValue), \(attachment.type), \(ByteCount.text(attachment.bytes)), \(attachment.path)\(gone)"
        }.joined()
    }
}
