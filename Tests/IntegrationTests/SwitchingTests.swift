import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The README's "Switching from dunst, mako or swaync" table says what to run instead of each
/// of their commands: every Chime command in it runs, against a chimed with a display, a
/// notification with actions on screen and one closed to bring back.
@Suite struct SwitchingTests {
    /// The last column of the first table under the section: one command a row.
    static func commands() throws -> [String] {
        let readme = try String(contentsOf: TestBus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Switching from dunst, mako or swaync").dropFirst().first)
        var commands: [String] = []
        var inTable = false
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            guard let last = line.split(separator: "|").last?.trimmingCharacters(in: .whitespaces),
                  last.hasPrefix("`chimectl "), last.hasSuffix("`") else { continue }
            commands.append(String(last.dropFirst().dropLast()))
        }
        return commands
    }

    @Test func everyChimeCommandInTheSwitchingTableRuns() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 15, "\(commands)")
        let display = try XDisplay()
        let bus = try TestBus(config: "[rule NAME]\nmatch-app = Spotify\nbanners = false\n", display: display)
        let client = try bus.client()
        for command in commands {
            _ = try client.notify(app: "Mail", summary: "closed", timeout: 0)
            _ = try bus.chimectl("dismiss")
            _ = try client.notify(app: "Mail", summary: "open", actions: ["default", "Open", "later", "Later"], timeout: 0)
            // The programs it hands off to, as stand-ins: a menu that picks the first line, a
            // command run under a Focus.
            let words = command.replacingOccurrences(of: "wofi -d", with: "head -n 1")
                .replacingOccurrences(of: "-- obs", with: "-- true")
                .split(separator: " ").dropFirst().map(String.init)
            if words.first == "watch" {
                let watch = try bus.start(TestBus.chimectl, words)
                #expect(watch.line(timeout: 10, matching: { $0.hasPrefix("{") }) != nil, "\(command): \(watch.stderr)")
                watch.signal(SIGTERM)
                continue
            }
            let result = try bus.run(TestBus.chimectl, words)
            let allowed: Set<Int32> = words.last == "status" ? [0, 1] : [0]
            #expect(allowed.contains(result.status), "\(command): \(result)")
        }
    }
}

/// What real clients send means what they mean (design sections 2 and 21; the platform
/// reference's KDE hints): over the bus, with notify-send and a client as the apps send them.
@Suite struct ClientHintsBusTests {
    func record(_ summary: String, in client: TestClient) -> [String: BusValue]? {
        (try? client.list())?.first { $0["summary"]?.string == summary }
    }

    /// `notify-send -u critical` from an app granted critical-alerts is critical, and breaks
    /// through Do Not Disturb; from another app it is time-sensitive.
    @Test func urgencyCriticalIsCriticalForAnAppGrantedIt() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "battery", "Battery at 20%"])
        #expect(try bus.chimectl("apps", "set", "battery", "critical-alerts=true").status == 0)
        #expect(try bus.chimectl("dnd", "on").status == 0)
        _ = try bus.run("notify-send", ["-u", "critical", "-a", "battery", "Battery at 3%"])
        _ = try bus.run("notify-send", ["-u", "critical", "-a", "chat", "Hey!!!"])
        let client = try bus.client()
        #expect(record("Battery at 3%", in: client)?["level"]?.string == "critical")
        #expect(record("Battery at 3%", in: client)?["state"]?.string == "presented")
        #expect(record("Hey!!!", in: client)?["level"]?.string == "time-sensitive")
        let json = try bus.chimectl("list", "--json").stdout
        #expect(json.contains("\"level\":\"critical\""), "\(json)")
    }

    /// Chromium's urgency 2 is a page's requireInteraction: active and resident, staying on
    /// screen, without spending a time-sensitive budget.
    @Test func chromiumsUrgencyCriticalIsActiveAndResident() throws {
        let bus = try TestBus()
        let client = try bus.client()
        let id = try client.notify(app: "Chromium", summary: "example.com", body: "A page asks",
                                   hints: [("urgency", .byte(2)), ("desktop-entry", .string("chromium"))])
        let shown = try #require(record("example.com", in: client))
        #expect(shown["level"]?.string == "active" && shown["resident"]?.bool == true, "\(shown)")
        #expect(shown["stays"]?.bool == true, "stays until the person acts")
        #expect(try bus.chimectl("why", "\(id)").stdout.contains("a browser's urgency critical asks only to stay on screen"))
    }

    /// KDE's hints: the origin shown after the app's name, the display name shown, the component
    /// naming the app for its settings.
    @Test func kdeHintsNameTheAppAndItsOrigin() throws {
        let bus = try TestBus()
        let client = try bus.client()
        _ = try client.notify(app: "KDE Connect", summary: "Ada", body: "On my way",
                              hints: [("x-kde-appname", .string("kdeconnect")), ("x-kde-origin-name", .string("Pixel 8")),
                                      ("x-kde-display-appname", .string("Signal"))])
        let shown = try #require(record("Ada", in: client))
        #expect(shown["app-identity"]?.string == "kdeconnect")
        #expect(shown["origin"]?.string == "Pixel 8" && shown["display-app-name"]?.string == "Signal", "\(shown)")
        #expect(try bus.chimectl("apps", "show", "kdeconnect").status == 0, "its settings go by its component name")
        let kept = try #require(try client.pages("History").first { $0["summary"]?.string == "Ada" })
        #expect(kept["origin"]?.string == "Pixel 8", "the center keeps it")
    }
}
