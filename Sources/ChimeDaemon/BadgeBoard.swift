import ChimeCore
import ChimeDBus
import ChimeGLib

/// Announces badges: a LauncherEntry Update per app whose badge changed, and one
/// BadgesChanged on the control interface. A change after a quiet spell is announced as soon
/// as the main loop is idle; changes that follow it are gathered for `interval`, so a stream of
/// notifications costs docks and bars ten announcements a second, not one per notification
/// (each is a signal every dock on the bus wakes for).
final class BadgeBoard {
    static let launcherPath = "/com/canonical/unity/launcherentry/chime"
    let launcherSpec = InterfaceSpec.load("com.canonical.Unity.LauncherEntry.xml")[0]
    private let objects: ObjectServer
    /// What was last announced per app; apps at zero and hidden are dropped.
    private(set) var announced: [String: Badge] = [:]
    /// Apps to look at, in the order their badges may have changed; an app twice in a row is
    /// kept once, and the rest of the repeats go when they are looked at.
    private var pending: [String] = []
    private var scheduled = false
    private var lastAnnounced: Int64?
    static let intervalMilliseconds: Int64 = 100
    private let current: (String) -> Badge
    private let changed: ([(String, Badge)]) -> Void
    /// Apps that send their own LauncherEntry count: bars still hear Chime's (BadgesChanged),
    /// docks only the app's.
    var sendsOwnCount: (String) -> Bool = { _ in false }

    /// `current` computes an app's badge now; `changed` hears each batch that was announced.
    init(objects: ObjectServer, current: @escaping (String) -> Badge, changed: @escaping ([(String, Badge)]) -> Void) {
        self.objects = objects
        self.current = current
        self.changed = changed
    }

    /// Badges of these apps may have changed; they are looked at once the loop is idle.
    func mayHaveChanged(_ apps: some Sequence<String>) {
        for app in apps where pending.last != app { pending.append(app) }
        guard !pending.isEmpty, !scheduled else { return }
        scheduled = true
        // Zero after a quiet spell: the next turn of the main loop.
        let wait = lastAnnounced.map { $0 + Self.intervalMilliseconds - GLibSources.monotonicMilliseconds() } ?? 0
        GLibSources.timeout(milliseconds: UInt32(max(0, wait))) { [weak self] in
            self?.announce()
            return false
        }
    }

    /// Every app with a badge may have changed: a Focus that hides badges came or went.
    func allMayHaveChanged(_ appsWithUnread: some Sequence<String>) {
        mayHaveChanged(Array(announced.keys) + Array(appsWithUnread))
    }

    /// Announces every badge again, changed or not: after a restart, docks hear the counts.
    func announceAll(_ apps: some Sequence<String>) {
        announced = [:]
        mayHaveChanged(apps)
    }

    private func announce() {
        scheduled = false
        lastAnnounced = GLibSources.monotonicMilliseconds()
        var batch: [(String, Badge)] = []
        for app in Set(pending).sorted() {
            let badge = current(app)
            let previous = announced[app] ?? Badge(count: 0, visible: false)
            guard badge != previous else { continue }
            announced[app] = badge.count == 0 && !badge.visible ? nil : badge
            batch.append((app, badge))
            if !sendsOwnCount(app) { emitLauncherEntry(app, badge) }
        }
        pending = []
        if !batch.isEmpty { changed(batch) }
    }

    /// An app began sending its own count: Chime's, if docks have one, is taken back.
    func appSendsOwnCount(_ app: String) {
        if announced[app] != nil { emitLauncherEntry(app, Badge(count: 0, visible: false)) }
    }

    private func emitLauncherEntry(_ app: String, _ badge: Badge) {
        objects.emit(path: Self.launcherPath, interface: launcherSpec, signal: "Update", [
            .string(Self.uri(app)),
            .vardict([("count", .int64(Int64(badge.count))), ("count-visible", .bool(badge.visible))]),
        ])
    }

    /// The app a LauncherEntry URI names: "org.telegram.desktop" for
    /// application://org.telegram.desktop.desktop; nil for another kind of URI.
    /// An app's badge as `BadgesChanged` and `GetBadges` say it.
    static func record(_ app: String, _ badge: Badge) -> BusValue {
        .vardict([("app", .string(app)), ("count", .int64(Int64(badge.count))), ("visible", .bool(badge.visible))])
    }

    static func app(fromURI uri: String) -> String? {
        guard uri.hasPrefix("application://") else { return nil }
        var name = uri.dropFirst("application://".count)
        if name.hasSuffix(".desktop") { name = name.dropLast(".desktop".count) }
        return name.isEmpty ? nil : String(name)
    }

    /// application://APP.desktop, as docks match launchers.
    static func uri(_ app: String) -> String {
        "application://" + (app.hasSuffix(".desktop") ? app : app + ".desktop")
    }
}
