import ChimeCore
import Foundation
import Testing

/// chimectl as scripts read it, as a dunst or mako user's scripts expect: nothing on stdout for
/// an empty listing in a pipe, exit 2 for an app nobody knows, app names in any case, bare
/// numbers and exit codes to test.
@Suite struct ScriptingTests {
    @Test func emptyListingsSayNothingIntoAPipe() throws {
        let bus = try TestBus()
        for command in [["list"], ["history"], ["badges"], ["summary", "list"], ["rules"]] {
            let result = try bus.run(TestBus.chimectl, command)
            #expect(result.status == 0 && result.stdout.isEmpty, "\(command): \(result.stdout)")
            #expect(!result.stderr.isEmpty, "\(command) says why on stderr")
        }
        // To a terminal the words are there (script gives it one).
        let terminal = try bus.run("script", ["-qec", "\(TestBus.chimectl) list", "/dev/null"]).stdout
        #expect(terminal.contains("no notifications"))
    }

    @Test func anAppNobodyKnowsExits2AndNamesAreMatchedInAnyCase() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "firefox", "Download finished"])
        for command in [["dismiss", "--app", "nope"], ["read", "--app", "nope"], ["clear", "--app", "nope"], ["apps", "show", "nope"]] {
            let result = try bus.run(TestBus.chimectl, command)
            #expect(result.status == 2 && result.stderr.contains("no app named 'nope'"), "\(command): \(result)")
        }
        #expect(try bus.chimectl("read", "--app", "Firefox").status == 0)
        #expect(try bus.chimectl("count", "--unread").stdout == "0")
        #expect(try bus.chimectl("apps", "set", "Firefox", "banners=false").status == 0)
        #expect(try bus.chimectl("apps", "show", "firefox").stdout.contains("banners = false"))
        #expect(try bus.chimectl("dismiss", "--app", "FIREFOX").status == 0)
        #expect(try bus.chimectl("count").stdout == "0")
    }

    /// `apps set` may set up an app before it has sent anything; it is kept across a restart.
    @Test func anAppCanBeSetUpBeforeItSendsAnything() throws {
        let bus = try TestBus()
        #expect(try bus.chimectl("apps", "set", "org.example.Later", "sounds=false").status == 0)
        try bus.restartChimed()
        #expect(try bus.chimectl("apps", "show", "org.example.Later").stdout.contains("sounds = false"))
    }

    @Test func versionCountsAndStatesForScripts() throws {
        let bus = try TestBus()
        #expect(try bus.chimectl("--version").stdout == "chimectl \(ChimeVersion.string)")
        #expect(try bus.chimectl("count").stdout == "0")
        _ = try bus.run("notify-send", ["one"])
        _ = try bus.run("notify-send", ["two"])
        #expect(try bus.chimectl("count").stdout == "2")
        #expect(try bus.chimectl("count", "--unread").stdout == "2")

        let off = try bus.chimectl("dnd", "status")
        #expect(off.status == 1 && off.stdout == "Do Not Disturb: off")
        // What changes something is silent on success, as dunstctl and makoctl are; status says.
        let silent = [["dnd", "on"], ["dnd", "on"], ["dnd", "toggle"], ["dnd", "toggle"], ["mute", "toggle"], ["sharing", "on"],
                      ["sharing", "off"], ["read", "--all"], ["clear"], ["summary", "now"], ["dismiss", "--all"]]
        for command in silent {
            let result = try bus.run(TestBus.chimectl, command)
            #expect(result.status == 0 && result.stdout.isEmpty, "\(command): \(result)")
        }
        let on = try bus.chimectl("dnd", "status")
        #expect(on.status == 0 && on.stdout == "Do Not Disturb: on")
        #expect(try bus.chimectl("dnd", "off").status == 0)
        #expect(try bus.chimectl("dnd", "status").stdout == "Do Not Disturb: off")
        let muted = try bus.chimectl("mute", "status")
        #expect(muted.status == 0 && muted.stdout == "mute: on (critical notifications still sound)")
        #expect(try bus.chimectl("mute", "off").stdout.isEmpty)
        #expect(try bus.chimectl("mute", "status").status == 1)
    }

    /// `chimectl watch` shows what came without a banner too, with its state: held by a Focus,
    /// quiet (passive), and what a Focus let go when it ended.
    @Test func watchReportsHeldAndQuietNotifications() throws {
        let bus = try TestBus()
        let watcher = try Watcher(bus: bus)
        let stored = { (summary: String, state: String) -> Bool in
            watcher.process.line(timeout: 10) { $0.contains("\"event\":\"stored\"") && $0.contains(summary) && $0.contains("\"state\":\"\(state)\"") } != nil
        }
        _ = try bus.run("notify-send", ["-u", "low", "passing by"])
        #expect(stored("passing by", "quiet"))
        _ = try bus.chimectl("dnd", "on")
        _ = try bus.run("notify-send", ["while away"])
        #expect(stored("while away", "held-by-focus"))
        _ = try bus.chimectl("dnd", "off")
        #expect(stored("while away", "quiet"), "let go quietly when the Focus ended")
    }

    /// `show` has every field `list --json` has, and what the center adds; `list` and `history`
    /// name their columns alike.
    @Test func showHasEveryFieldOfListAndTheColumnsShareNames() throws {
        let bus = try TestBus()
        let id = try bus.run("notify-send", ["-p", "-a", "Backup", "-u", "critical", "-t", "4000", "-i", "drive-harddisk",
                                             "-h", "int:value:40", "Copying", "40%"]).stdout
        let listed = try #require(try bus.client().list().first)
        let shown = try bus.chimectl("show", id, "--json").stdout
        for key in listed.keys {
            #expect(shown.contains("\"\(key)\":"), "show lacks \(key): \(shown)")
        }
        let text = try bus.chimectl("show", id).stdout
        for line in ["urgency: critical (2)", "expire-timeout: 4000", "progress: 40", "app-icon: drive-harddisk", "unread: yes", "open: yes"] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
        #expect(text.contains("\nsender: :"), "\(text)")
        let header = { (command: String) throws -> [Substring] in
            try bus.run("script", ["-qec", "\(TestBus.chimectl) \(command)", "/dev/null"]).stdout.replacingOccurrences(of: "\r", with: "")
                .split(separator: "\n").first?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        }
        let history = try header("history"), list = try header("list")
        #expect(Array(list.prefix(history.count)) == history, "list: \(list), history: \(history)")
    }
}
