import ChimeCore
import ChimeDBus

/// `chimectl apps list|show|set`.
enum AppCommands {
    static func apps(_ arguments: inout Arguments) throws(CommandLineError) {
        switch arguments.next() {
        case "list":
            let json = arguments.flag("--json")
            try arguments.done()
            let apps = try ControlClient().records("ListApps")
            if json { print(JSONOutput.list(apps, order: ordered)); return }
            if apps.isEmpty { TextTable.printEmpty(tr("no apps yet")); return }
            var table = TextTable("APP", "AUTHORIZATION", "DELIVERY", "BANNERS", "SOUNDS")
            for app in apps {
                table.add(["app", "authorization", "delivery", "banners", "sounds"].map { (app[$0]?.string ?? "").withoutControlCharacters() })
            }
            table.print()
        case "show":
            let json = arguments.flag("--json")
            guard let name = arguments.next() else { throw .usage(tr("apps show needs an app name (see chimectl apps list)")) }
            try arguments.done()
            let app = try ControlClient().call("GetApp", [.string(name)]).first?.vardictEntries ?? [:]
            if json { print(JSONOutput.record(app, order: ordered)); return }
            for key in AppSettings.keys { print("\(key) = \(app[key]?.string ?? "")") }
        case "set":
            guard let name = arguments.next(), let assignment = arguments.next() else {
                throw .usage(tr("apps set needs APP KEY=VALUE"))
            }
            try arguments.done()
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw .usage(tr("'{assignment}' is not KEY=VALUE", ["assignment": assignment])) }
            var scratch = AppSettings()
            if let problem = scratch.set(parts[0], to: parts[1]) { throw .usage(problem) }
            _ = try ControlClient().call("SetApp", [.string(name), .string(parts[0]), .string(parts[1])])
        case let other:
            throw .usage(other.map { tr("unknown apps command '{command}'", ["command": $0]) } ?? tr("apps needs list, show or set"))
        }
    }

    /// "app" first, then the settings in their documented order.
    static func ordered(_ entries: [String: BusValue]) -> [(String, BusValue)] {
        (["app"] + AppSettings.keys).compactMap { key in entries[key].map { (key, $0) } }
    }
}
