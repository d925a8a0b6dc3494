import ChimeCore
import ChimeDBus
import ChimeTestSupport
import Foundation
import Glibc

/// Memory with a display, as a person at the screen pays it (issue 37): chimed with the
/// chime-presenter it starts, dunst under Xvfb and mako under a headless sway, each on a private
/// bus of its own with its default config, measured the same way: the PSS of the server and its
/// children once 3 notifications came and went (chimed's presenter leaves after `idle-exit`, 30 s
/// by default), and with 5 banners on screen.
struct DisplayFootprint {
    struct Figures {
        /// PSS in kB, all the server's processes together.
        var idle = Double.nan, fiveBanners = Double.nan
        /// Private dirty memory in kB (heap, stacks, relocated data), all its processes together.
        var idleDirty = Double.nan, fiveBannersDirty = Double.nan
        /// Idle, how often a minute its threads woke (context switches over `idleWindow`).
        var idleWakeups = Double.nan
        var processes = 0, idleProcesses = 0
    }

    var figures: [(name: String, figures: Figures)] = []
    /// How long an idle server's wakeups are counted.
    static let idleWindow = 20.0

    enum Kind: String, CaseIterable {
        case chimed
        /// chimed with its banners drawn by GTK (CHIME_BANNERS=gtk), chime-banners' fallback.
        case chimedGTK = "chimed-gtk"
        case dunst, mako

        var isChime: Bool { self == .chimed || self == .chimedGTK }
    }

    static func measure(binaries: URL, kinds: [Kind]) -> DisplayFootprint {
        var footprint = DisplayFootprint()
        for kind in kinds {
            do {
                footprint.figures.append((kind.rawValue, try measure(kind, binaries: binaries)))
            } catch {
                print("note: \(kind.rawValue) not measured with a display: \(error)")
            }
        }
        return footprint
    }

    private static func measure(_ kind: Kind, binaries: URL) throws -> Figures {
        let session = try PrivateSession(name: "display-\(kind.rawValue)", pulse: nil)
        defer { session.stop() }
        let directory = session.directory, address = session.busAddress
        var env = session.environment
        env["NO_AT_BRIDGE"] = "1"
        var xvfb: VirtualDisplay?
        var sway: HeadlessSway?
        defer { xvfb?.stop() }
        if kind == .mako {
            guard access("/usr/bin/mako", X_OK) == 0 else { throw TestFailure("mako is not installed") }
            sway = try HeadlessSway(in: directory, width: 1280, height: 800)
            env.merge(sway!.environment) { _, new in new }
        } else {
            xvfb = try VirtualDisplay(environment: env)
            env["DISPLAY"] = xvfb?.name
        }
        let watcher = try BenchClient(address: address)
        try watcher.connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.freedesktop.Notifications'")
        let server = try start(kind, binaries: binaries, environment: env)
        defer { server.signal(SIGTERM); _ = server.wait(timeout: 10); server.signal(SIGKILL) }
        guard watcher.waitForSignal("NameOwnerChanged", timeout: 30) else { throw TestFailure("\(kind) did not take the name") }
        _ = sway

        let client = try BenchClient(address: address)
        try client.connection.addMatch("type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'")
        var figures = Figures()
        // Three that come and go; then quiet for longer than chimed's idle-exit.
        let ids = try (1...3).map { try client.banner("Arrived \($0)", app: $0, timeout: 1_000) }
        let closedBy = Date().addingTimeInterval(15)
        while !Set(ids).isSubset(of: client.closedIDs), Date() < closedBy { _ = client.connection.readWriteDispatch(timeoutMilliseconds: 50) }
        let idleUntil = Date().addingTimeInterval(kind.isChime ? 33 : 3)
        while Date() < idleUntil { usleep(100_000) }
        let idle = Self.processes(of: server.pid)
        (figures.idle, figures.idleDirty) = Self.memory(of: idle)
        figures.idleProcesses = idle.count
        let before = idle.map(contextSwitches(of:))
        Thread.sleep(forTimeInterval: Self.idleWindow)
        let woke = zip(before, idle.map(contextSwitches(of:))).reduce(0) { $0 + wakeups(from: $1.0, to: $1.1) }
        figures.idleWakeups = Double(woke) * 60 / Self.idleWindow
        // Five that stay.
        for index in 1...5 { _ = try client.banner("On screen \(index)", app: index, timeout: 0) }
        Thread.sleep(forTimeInterval: 3)
        let shown = Self.processes(of: server.pid)
        (figures.fiveBanners, figures.fiveBannersDirty) = Self.memory(of: shown)
        figures.processes = shown.count
        return figures
    }

    /// The server, with its default config (dunst with the benchmark's); chimed under
    /// CHIME_BENCH_WRAP's profiler if it names one.
    static func start(_ kind: Kind, binaries: URL, environment: [String: String]) throws -> Subprocess {
        var environment = environment
        if kind == .chimedGTK { environment["CHIME_BANNERS"] = "gtk" }
        let (executable, arguments): (String, [String]) = switch kind {
        case .chimed, .chimedGTK: (binaries.appendingPathComponent("chimed").path, [])
        case .dunst: ("/usr/bin/dunst", ["-config", binaries.appendingPathComponent("dunstrc").path])
        case .mako: ("/usr/bin/mako", [])
        }
        guard access(executable, X_OK) == 0 else { throw TestFailure("\(executable) is not installed") }
        let (wrapped, wrappedArguments) = kind.isChime ? Server.wrap(executable, arguments, environment: environment) : (executable, arguments)
        return try Subprocess(wrapped, wrappedArguments, environment: environment)
    }

    /// A process and its descendants.
    static func processes(of pid: pid_t) -> [pid_t] {
        var found = [pid]
        var index = 0
        while index < found.count {
            let children = (procFile(found[index], "task/\(found[index])/children") ?? "").split(separator: " ").compactMap { pid_t($0) }
            found += children
            index += 1
        }
        return found
    }

    /// Proportional set size and private dirty memory in kB (`smaps_rollup`), of the processes
    /// together.
    static func memory(of pids: [pid_t]) -> (pss: Double, privateDirty: Double) {
        pids.reduce((0, 0)) { total, pid in
            let lines = (procFile(pid, "smaps_rollup") ?? "").split(separator: "\n")
            func field(_ name: String) -> Double {
                lines.first { $0.hasPrefix(name + ":") }
                    .flatMap { Double($0.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") } ?? .nan
            }
            return (total.0 + field("Pss"), total.1 + field("Private_Dirty"))
        }
    }

    var report: String {
        func value(_ name: String, _ key: KeyPath<Figures, Double>) -> Double {
            figures.first { $0.name == name }?.figures[keyPath: key] ?? .nan
        }
        func ratio(_ key: KeyPath<Figures, Double>, _ other: String, of name: String = "chimed") -> String {
            formatRatio(value(name, key) / value(other, key))
        }
        let servers = ["chimed", "chimed-gtk", "dunst", "mako"]
        var text = """
            With a display (Xvfb for chimed and dunst, a headless sway for mako), default configs, PSS of each \
            server's processes (chimed with chime-banners while it runs; in the GTK column, with chime-presenter, \
            which draws the banners with GTK where chime-banners cannot, `CHIME_BANNERS=gtk`), and of that their private dirty \
            memory (heap, stacks, relocated data), which no other process can share: what a server costs beyond \
            the libraries' pages, which a desktop running GTK, cairo and pango apps already holds; and, idle, how \
            often a minute its threads woke (context switches in \(Int(Self.idleWindow)) s, after the idle PSS):

            | with a display | chimed | chimed, GTK banners | dunst | mako | chimed / dunst | GTK banners / dunst | chimed / mako | target |
            |---|---|---|---|---|---|---|---|---|

            """
        for (label, key, target) in [("idle, after 3 notifications came and went", \Figures.idle, "≤ 1x dunst and mako"),
                                     ("5 banners on screen", \Figures.fiveBanners, "≤ 2x dunst"),
                                     ("idle: private dirty", \Figures.idleDirty, ""),
                                     ("5 banners: private dirty", \Figures.fiveBannersDirty, "")] {
            let cells = servers.map { format(value($0, key) / 1024, 1) + " MB" }
            text += "| \(label) | " + cells.joined(separator: " | ")
                + " | \(ratio(key, "dunst")) | \(ratio(key, "dunst", of: "chimed-gtk")) | \(ratio(key, "mako")) | \(target) |\n"
        }
        let wakeups = servers.map { format(value($0, \Figures.idleWakeups), 1) }
        text += "| idle: wakeups a minute | " + wakeups.joined(separator: " | ")
            + " | \(ratio(\Figures.idleWakeups, "dunst")) | \(ratio(\Figures.idleWakeups, "dunst", of: "chimed-gtk")) | \(ratio(\Figures.idleWakeups, "mako")) |  |\n"
        let processes = figures.first { $0.name == "chimed" }?.figures.processes ?? 0
        return text + "\nWith 5 banners chimed ran as \(processes) process\(processes == 1 ? "" : "es") (chimed and chime-banners); idle, as \(figures.first { $0.name == "chimed" }?.figures.idleProcesses ?? 0).\n"
    }
}
