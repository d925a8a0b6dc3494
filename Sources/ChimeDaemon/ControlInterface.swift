import ChimeConfig
import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeStore
import Glibc

/// dev.chime.Chime1, as declared in dbus/dev.chime.Chime1.xml: what a person does from
/// chimectl, the panel, banners and bars. The methods live in groups beside it (`CenterControl`,
/// `FocusControl`, `AppControl`, `RuleControl`, `ActivityControl`, `ReplayControl`,
/// `PanelControl`, `PlayerControl`); each reaches the core through `core` and the rest of
/// chimed through the parts it is given. Owns what only it changes: whether the panel is open,
/// and the media players followed.
final class ControlInterface {
    /// The config: where it is, what it is read over, what is wrong in it, and rereading it.
    struct Config {
        let path: String
        let base: ChimeSettings
        let problems: () -> [ConfigLoader.Problem]
        let reload: () -> [ConfigLoader.Problem]
    }

    unowned let core: any Core
    let config: Config
    let center: Center
    let effects: Effects
    let signals: Signals
    let identities: SenderIdentities
    let decoder: NotifyDecoder
    let desktop: DesktopWatch
    /// What draws banners, and what draws the panel (the same, unless chime-banners draws banners).
    let presenter: PresenterChild
    let panelChild: PresenterChild
    /// Whether the panel is open (`ShowCenter`); chime-presenter draws it.
    var centerOpen = false
    /// The media players on the bus (`followMediaPlayers`).
    var mediaPlayers: MediaPlayers?

    init(core: any Core, config: Config, center: Center, effects: Effects, signals: Signals, identities: SenderIdentities,
         decoder: NotifyDecoder, desktop: DesktopWatch, presenter: PresenterChild, panelChild: PresenterChild) {
        (self.core, self.config, self.center, self.effects, self.signals) = (core, config, center, effects, signals)
        (self.identities, self.decoder, self.desktop, self.presenter, self.panelChild) = (identities, decoder, desktop, presenter, panelChild)
    }

    var store: NotificationStore? { center.store }

    func interface() -> ExportedInterface {
        let handlers = centerHandlers()
            .merging(notificationHandlers()) { first, _ in first }
            .merging(focusHandlers()) { first, _ in first }
            .merging(appHandlers()) { first, _ in first }
            .merging(ruleHandlers()) { first, _ in first }
            .merging(activityHandlers()) { first, _ in first }
            .merging(replayHandlers()) { first, _ in first }
            .merging(panelHandlers()) { first, _ in first }
            .merging(playerHandlers()) { first, _ in first }
        return ExportedInterface(spec: signals.controlSpec, handlers: handlers, properties: [
            "ActiveFocus": { [unowned self] in .string(core.attention.currentFocus?.name ?? "") },
            "Muted": { [unowned self] in .bool(core.attention.muted) },
            "ConfigProblems": { [unowned self] in .stringArray(config.problems().map(\.description)) },
        ].merging(centerProperties) { first, _ in first })
    }

    /// Runs a core operation and applies its events; refusals become D-Bus errors.
    func acting(_ operation: @escaping (any Core, MethodCall) throws(RequestError) -> [ServerEvent]) -> ExportedInterface.Handler {
        { [unowned self] call throws(BusError) in
            do throws(RequestError) {
                core.apply(try operation(core, call))
            } catch {
                throw BusError(error)
            }
            return []
        }
    }

    /// A page of `notifications` in their order, from just after the one `after` names (or, if that
    /// one has closed since, the first with a higher id).
    /// `unread`: whether the center has one unread, said in its record as the center's are.
    static func page(of notifications: [Notification], options: BusValue, unread: (UInt32) -> Bool = { _ in false }) throws(BusError) -> [BusValue] {
        var start = notifications.startIndex
        if let after = try RecordPage.after(options.vardictEntries ?? [:]) {
            start = notifications.firstIndex { $0.id == after }.map { $0 + 1 } ?? notifications.firstIndex { $0.id > after }
                ?? notifications.endIndex
        }
        var page = RecordPage()
        for notification in notifications[start...] {
            let entries = NotificationRecord.entries(notification) + (unread(notification.id) ? [("unread", .bool(true))] : [])
            guard page.add(.vardict(entries), id: notification.id) else { break }
        }
        return page.reply
    }

    /// What the desktop says and through what, or why it says nothing.
    private var desktopStatus: [(String, BusValue)] {
        let context = desktop.context
        return [("desktop", .string(context.source?.rawValue ?? "")),
                ("focused-app", .string(context.focused?.appIDs.first ?? "")),
                ("fullscreen", .bool(context.fullscreen))]
            + (desktop.unavailable.map { [("desktop-problem", .string($0))] } ?? [])
    }

    private func notificationHandlers() -> [String: ExportedInterface.Handler] {
        [
            "GetStatus": { [unowned self] _ in
                [.vardict([
                    ("version", .string(ChimeVersion.string)),
                    ("pid", .uint32(UInt32(getpid()))),
                    ("open", .uint32(UInt32(core.attention.server.count))),
                    ("focus", .string(core.attention.currentFocus?.name ?? "")),
                    ("muted", .bool(core.attention.muted)),
                    ("unread", .uint32(UInt32(core.attention.unread.total))),
                    ("config", .string(config.path)),
                    ("banners", .string(presenter.status.rawValue)),
                    ("presenter-running", .bool(presenter.isRunning)),
                    ("banner-program", .string(presenter.programName)),
                    ("center-open", .bool(centerOpen)),
                    ("history", .string(store == nil ? "off" : store?.notKept == nil ? "kept" : "not-kept")),
                    ("sharing", .bool(core.attention.focus.sharing)),
                    ("config-problems", .stringArray(config.problems().map(\.description))),
                ] + desktopStatus + (store?.notKept.map { [("history-problem", .string($0))] } ?? []))]
            },
            "List": { [unowned self] call throws(BusError) in
                try Self.page(of: core.attention.server.notifications, options: call.arguments[0], unread: core.attention.unread.isUnread)
            },
            "Reply": { [unowned self] call throws(BusError) in
                guard case .uint32(let id) = call.arguments[0], case .string(let text) = call.arguments[1] else { return [] }
                if let open = core.attention.server.notification(id), open.action(Action.inlineReplyKey) != nil {
                    try requireSenderPresent(open)
                }
                do throws(RequestError) { core.apply(try core.attention.server.reply(id, text: text)) } catch { throw BusError(error) }
                return []
            },
            "DismissAll": { [unowned self] _ in
                let events = core.attention.server.dismissAll()
                core.apply(events)
                return [.uint32(UInt32(events.count))]
            },
            "DismissApp": { [unowned self] call throws(BusError) in
                let events = core.attention.server.dismissAll(app: try knownApp(named: call.arguments[0].string ?? ""))
                core.apply(events)
                return [.uint32(UInt32(events.count))]
            },
            "SummaryList": { [unowned self] call throws(BusError) in
                try Self.page(of: core.attention.summaryQueue, options: call.arguments[0])
            },
            "SummaryNow": { [unowned self] _ in
                let count = core.attention.summaryQueue.count
                core.apply(core.attention.deliverSummary(now: core.now))
                return [.uint32(UInt32(count))]
            },
            "SetMuted": { [unowned self] call in
                guard case .bool(let muted) = call.arguments[0] else { return [] }
                core.apply(core.attention.setMuted(muted))
                signals.controlPropertiesChanged([("Muted", .bool(muted))])
                return []
            },
            "SetPointerOver": { [unowned self] call in
                guard case .uint32(let id) = call.arguments[0], case .bool(let over) = call.arguments[1] else { return [] }
                let now = core.now.monotonic
                if over { core.attention.server.pauseExpiry(id, now: now) } else { core.attention.server.resumeExpiry(id, now: now) }
                core.apply([])
                return []
            },
            "Reload": { [unowned self] _ in [.stringArray(config.reload().map(\.description))] },
        ]
    }
}
