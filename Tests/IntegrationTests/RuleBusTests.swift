import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// `[rule NAME]` sections through real clients: notify-send sends, the control interface and
/// `chimectl` show what the rules made of each notification.
@Suite struct RuleBusTests {
    static let config = #"""
    [rule now-playing]
    match-app = ^Spotify$
    match-summary = ^Now playing
    banners = false
    show-in-center = false

    [rule pager]
    match-summary = ^PAGE\b
    match-urgency = normal
    level = critical
    """#

    func record(_ summary: String, in client: TestClient) throws -> [String: BusValue]? {
        try client.list().first { $0["summary"]?.string == summary }
    }

    @Test func rulesChangeWhatTheyMatchAndAReloadChangesTheRules() throws {
        let bus = try TestBus(config: Self.config)
        let watcher = try Watcher(bus: bus)
        let client = try bus.client()
        _ = try bus.run("notify-send", ["-a", "Spotify", "Now playing", "Song 2"])
        _ = try bus.run("notify-send", ["-a", "Spotify", "Update ready", "x"])
        let page = try bus.run("notify-send", ["-p", "-a", "oncall", "PAGE: db down", "x"]).stdout
        _ = try bus.run("notify-send", ["-a", "oncall", "-u", "low", "PAGE: disk at 80%", "x"])

        #expect(watcher.presented(containing: "PAGE: db down")?["level"] as? String == "critical",
                "critical, though the app has no critical-alerts permission")
        #expect(try bus.chimectl("show", page).stdout.contains("\nrules: pager\n"), "show says which rules shaped it")
        #expect(try record("Now playing", in: client)?["state"]?.string == "quiet")
        #expect(try record("Update ready", in: client)?["state"]?.string == "presented", "the summary must match too")
        #expect(try record("PAGE: disk at 80%", in: client)?["level"]?.string == "passive", "the urgency must match too")
        #expect(watcher.allPresented(containing: "Now playing").isEmpty)
        let listed = try bus.chimectl("rules").stdout.split(separator: "\n")
        #expect(listed == ["now-playing\tyes\t1\tmatch-app=^Spotify$; match-summary=^Now playing\tbanners=false; show-in-center=false",
                           "pager\tyes\t1\tmatch-summary=^PAGE\\b; match-urgency=normal\tlevel=critical"], "\(listed)")
        let json = try bus.chimectl("rules", "--json").stdout
        #expect(json.contains(#""name":"pager","enabled":true,"matched":1,"match":["match-summary=^PAGE\\b","match-urgency=normal"]"#), "\(json)")
        let history = try bus.chimectl("history").stdout
        #expect(history.contains("Update ready") && !history.contains("Now playing"), "show-in-center = false: \(history)")

        try bus.writeConfig(Self.config + "\n[rule broken]\nmatch-body = (unclosed\nsounds = false\n")
        let refused = try bus.chimectl("reload")
        #expect(refused.status == 1 && refused.stderr.contains("chime.conf:12: [rule broken] match-body: Error while compiling regular expression ‘(unclosed’"),
                "\(refused)")
        _ = try bus.run("notify-send", ["-a", "oncall", "PAGE: still here", "x"])
        #expect(watcher.presented(containing: "PAGE: still here")?["level"] as? String == "critical", "the rules in force stay")

        try bus.writeConfig("")
        #expect(try bus.chimectl("reload").status == 0)
        #expect(try bus.chimectl("rules").stderr.hasPrefix("no rules"))
        _ = try bus.run("notify-send", ["-a", "oncall", "PAGE: after reload", "x"])
        #expect(watcher.presented(containing: "PAGE: after reload")?["level"] as? String == "active")
    }

    /// Patterns that backtrack without end (`(a+)+$` on a run of a's) meet their match budget:
    /// each such rule is said in the log once and turned off, and 200 bodies of 65,000 a's,
    /// against 300 such rules, are all answered at once.
    @Test func aRuleThatBacktracksWithoutEndIsTurnedOffAndFreezesNothing() throws {
        let rules = (0..<300).map { "[rule runaway\($0)]\nmatch-body = (a+)+$\nlevel = critical\n" }.joined(separator: "\n")
        let bus = try TestBus(config: rules + "\n[rule fine]\nmatch-summary = ^fine$\nsounds = false\n")
        let body = String(repeating: "a", count: 65_000) + "b"
        let client = try bus.client()
        for index in 0..<200 { _ = try client.notify(app: "Flood", summary: "n\(index)", body: body) }
        let fine = try client.notify(app: "Flood", summary: "fine", body: body)
        #expect(try client.control("Show", [.uint32(fine)]).first?.vardictEntries?["rules"]?.strings == ["fine"])
        #expect(bus.logSays("rule runaway7: a pattern of it met its match budget on a notification of Flood"))
        let listed = try bus.chimectl("rules").stdout.split(separator: "\n")
        #expect(listed.filter { $0.hasPrefix("runaway") }.allSatisfy { $0.split(separator: "\t")[1] == "no" }, "turned off")
        #expect(listed.contains { $0.hasPrefix("fine\tyes") })
    }
}
