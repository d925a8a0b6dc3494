import ChimeCore
import Glibc

/// `chimectl replay [--since DURATION] [--config FILE] [--json]`: the center's notifications
/// decided again (design section 23), per app as they came → as they would, and those whose
/// outcome would change, with both reasons.
enum ReplayCommand {
    static func replay(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        var options: [(String, BusValue)] = []
        if let text = try arguments.option("--since") {
            guard let seconds = DurationText.seconds(text), seconds > 0, seconds <= Int64(UInt32.max) else {
                throw .usage(tr("--since takes a duration such as 7d or 36h, not '{text}'", ["text": text]))
            }
            options.append(("since-seconds", .uint32(UInt32(seconds))))
        }
        if let path = try arguments.option("--config") {
            // chimed reads it: a path from here, made absolute.
            let absolute = path.hasPrefix("/") ? path : (currentDirectory() + "/" + path)
            options.append(("config", .string(absolute)))
        }
        try arguments.done()
        let reply = try ControlClient().call("Replay", [.vardict(options)])
        let apps = reply.first?.records ?? [], changes = reply.count > 1 ? reply[1].records : []
        if json {
            print(JSONText.encode(.vardict([("apps", .array(elementSignature: "a{sv}", apps.map { .vardict($0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) })),
                                            ("changes", .array(elementSignature: "a{sv}", changes.map { .vardict($0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }))])))
            return
        }
        if apps.isEmpty {
            TextTable.printEmpty(tr("the center has no notification to replay in that span"))
            return
        }
        var table = TextTable("APP", "BANNERS", "SOUNDS", "HELD", "SUMMARIZED")
        for app in apps {
            func column(_ name: String) -> String {
                let (was, would) = (app["was-" + name]?.integer ?? 0, app["would-" + name]?.integer ?? 0)
                return was == would ? String(was) : "\(was) → \(would)"
            }
            table.add([(app["app-name"]?.string ?? "").withoutControlCharacters(), column("banners"), column("sounds"), column("held"),
                       column("summarized")])
        }
        table.print()
        print("\n" + (changes.isEmpty ? tr("no notification would come out otherwise")
                                     : trn("{n} notification would come out otherwise:", "{n} notifications would come out otherwise:", changes.count)))
        for change in changes {
            print("  \(change["id"]?.integer ?? 0) \(change["app-name"]?.string ?? ""): \(change["summary"]?.string ?? "")".withoutControlCharacters())
            let (was, would) = (change["was"]?.strings ?? [], change["would"]?.strings ?? [])
            print("    " + tr("was:") + "   " + (was.filter { !would.contains($0) }.first ?? was.first ?? "").withoutControlCharacters())
            print("    " + tr("would:") + " " + (would.filter { !was.contains($0) }.first ?? would.first ?? "").withoutControlCharacters())
        }
    }

    private static func currentDirectory() -> String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }
}
