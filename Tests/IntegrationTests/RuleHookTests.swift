import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// A rule's `exec`, as dunst's `script` and mako's `on-notify`: run for each notification the
/// rule matches, with its fields in the environment (Chime's names and dunst's), never in its
/// arguments, never holding up Notify, and ended with all it started after 10 s; `chimectl
/// rule` turns a rule off and on.
@Suite struct RuleHookTests {
    static let config = #"""
    [app Secret]
    previews = never

    [rule log]
    match-app = ^(Build|Secret)$
    exec = printf '%s|%s|%s|%s|%s\n' "$CHIME_APP_NAME" "$CHIME_SUMMARY" "$DUNST_URGENCY" "$#" "$CHIME_BODY" >> "$HOME/hook.out"

    [rule slow]
    match-app = ^Slow$
    exec = sleep 30
    """#

    /// The lines the hook wrote, once there are `count` of them (or what there is after 10 s).
    func lines(_ bus: TestBus, count: Int) -> [String] {
        let file = bus.directory.appendingPathComponent("hook.out").path
        let deadline = Date().addingTimeInterval(10)
        var lines: [String] = []
        repeat {
            lines = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines.count >= count { break }
            usleep(20_000)
        } while Date() < deadline
        return lines
    }

    @Test func execRunsForEachMatchWithItsFields() throws {
        let bus = try TestBus(config: Self.config)
        _ = try bus.run("notify-send", ["-a", "Other", "not matched"])
        _ = try bus.run("notify-send", ["-a", "Build", "-u", "critical", "failed", "<b>step</b> 3"])
        _ = try bus.run("notify-send", ["-a", "Secret", "the code is 4711", "x"])
        let written = lines(bus, count: 2)
        #expect(written.first == "Build|failed|CRITICAL|0|step 3", "no arguments: \(written)")
        #expect(written.last == "Secret|Secret|NORMAL|0|Notification", "a hidden preview stays hidden: \(written)")
        #expect(written.count == 2, "only what the rule matches")
        #expect(try bus.chimectl("rules").stdout.contains("exec=printf"))
    }

    /// Commands are not waited for, and at most eight run at once: a flood that matches a rule
    /// starts no flood of processes, and every Notify is still answered.
    @Test func commandsNeverHoldUpNotifyAndAFloodStartsAFew() throws {
        let bus = try TestBus(config: Self.config)
        let client = try bus.client()
        let ids = try (0..<12).map { try client.notify(app: "Slow", summary: "n\($0)") }
        #expect(Set(ids).count == 12)
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("rule slow: exec skipped") && $0.contains("8 commands are still running") } != nil,
                "\(bus.daemonLog)")
        #expect(try bus.chimectl("count").stdout == "12")
    }

    @Test func aRuleTurnedOffRunsNothingUntilItIsOnAgain() throws {
        let bus = try TestBus(config: Self.config)
        #expect(try bus.chimectl("rule", "log", "disable").stdout.isEmpty)
        #expect(try bus.chimectl("rules").stdout.split(separator: "\n").contains { $0.hasPrefix("log\tno\t") })
        _ = try bus.run("notify-send", ["-a", "Build", "while off"])
        #expect(try bus.chimectl("rule", "log", "toggle").status == 0)
        #expect(try bus.chimectl("rules").stdout.split(separator: "\n").contains { $0.hasPrefix("log\tyes\t") })
        _ = try bus.run("notify-send", ["-a", "Build", "while on"])
        #expect(lines(bus, count: 1).map { $0.split(separator: "|")[1] } == ["while on"])
        let unknown = try bus.chimectl("rule", "nope", "enable")
        #expect(unknown.status == 2 && unknown.stderr.contains("no rule named 'nope'"))
    }

    /// What a command leaves behind (in the background, or in a session of its own with setsid)
    /// is ended with it at the time limit; and no process shows a notification's text in its
    /// arguments (`/proc/PID/cmdline`, which any user reads).
    @Test func everythingACommandStartedEndsAtItsTimeLimit() throws {
        let bus = try TestBus(config: """
            [rule linger]
            match-app = ^Linger$
            exec = sleep 61 & setsid sleep 62 & exec sleep 63
            """)
        let client = try bus.client()
        for index in 0..<3 { _ = try client.notify(app: "Linger", summary: "Your code is 48291\(index)") }
        func sleepers() -> [String] {
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
            return pids.compactMap { procFile($0, "cmdline")?.replacingOccurrences(of: "\0", with: " ") }
                .filter { ["sleep 61 ", "sleep 62 ", "sleep 63 "].contains($0) }
        }
        #expect(client.waitUntil(timeout: 5) { sleepers().count == 9 }, "\(sleepers())")
        let everyone = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        #expect(!everyone.contains { procFile($0, "cmdline")?.contains("Your code is") == true }, "the text is in no process's arguments")
        #expect(client.waitUntil(timeout: 20) { sleepers().isEmpty }, "still running after the limit: \(sleepers())")
        #expect(bus.logSays("rule linger: exec ran past 10 s and was ended, with all it started"))
    }
}
