import ChimeControl
import ChimeCore
import ChimeDBus
import Glibc

/// dev.chime.Chime1, as declared in dbus/dev.chime.Chime1.xml: what a user does to a
/// popup, done from chimectl, presenters and bars. Focus and app methods live beside it.
extension Daemon {
    func controlInterface() -> ExportedInterface {
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
            "ActiveFocus": { [unowned self] in .string(attention.currentFocus?.name ?? "") },
            "Muted": { [unowned self] in .bool(attention.muted) },
            "ConfigProblems": { [unowned self] in .stringArray(configProblems.map(\.description)) },
        ].merging(centerProperties) { first, _ in first })
    }

    /// Runs a core operation and applies its events; refusals become D-Bus errors.
    func acting(_ operation: @escaping (Daemon, MethodCall) throws(RequestError) -> [ServerEvent]) -> ExportedInterface.Handler {
        { [unowned self] call throws(BusError) in
            do throws(RequestError) {
                apply(try operation(self, call))
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
                    ("open", .uint32(UInt32(attention.server.count))),
                    ("focus", .string(attention.currentFocus?.name ?? "")),
                    ("muted", .bool(attention.muted)),
                    ("unread", .uint32(UInt32(attention.unread.total))),
                    ("config", .string(configLoader.path)),
                    ("banners", .string(presenter.status.rawValue)),
                    ("presenter-running", .bool(presenter.isRunning)),
                    ("banner-program", .string(presenter.programName)),
                    ("center-open", .bool(centerOpen)),
                    ("history", .string(store == nil ? "off" : store?.notKept == nil ? "kept" : "not-kept")),
                    ("sharing", .bool(attention.focus.sharing)),
                    ("config-problems", .stringArray(configProblems.map(\.description))),
                ] + desktopStatus + (store?.notKept.map { [("history-problem", .string($0))] } ?? []))]
            },
            "List": { [unowned self] call throws(BusError) in
                try Self.page(of: attention.server.notifications, options: call.arguments[0], unread: attention.unread.isUnread)
            },
            "Reply": { [unowned self] call throws(BusError) in
                guard case .uint32(let id) = call.arguments[0], case .string(let text) = call.arguments[1] else { return [] }
                if let open = attention.server.notification(id), open.action(Action.inlineReplyKey) != nil {
                    try requireSenderPresent(open)
                }
                do throws(RequestError) { apply(try attention.server.reply(id, text: text)) } catch { throw BusError(error) }
                return []
            },
            "DismissAll": { [unowned self] _ in
                let events = attention.server.dismissAll()
                apply(events)
                return [.uint32(UInt32(events.count))]
            },
            "DismissApp": { [unowned self] call throws(BusError) in
                let events = attention.server.dismissAll(app: try knownApp(named: call.arguments[0].string ?? ""))
                apply(events)
                return [.uint32(UInt32(events.count))]
            },
            "SummaryList": { [unowned self] call throws(BusError) in
                try Self.page(of: attention.summaryQueue, options: call.arguments[0])
            },
            "SummaryNow": { [unowned self] _ in
                let count = attention.summaryQueue.count
                apply(attention.deliverSummary(now: now))
                return [.uint32(UInt32(count))]
            },
            "SetMuted": { [unowned self] call in
                guard case .bool(let muted) = call.arguments[0] else { return [] }
                apply(attention.setMuted(muted))
                signals.controlPropertiesChanged([("Muted", .bool(muted))])
                return []
            },
            "SetPointerOver": { [unowned self] call in
                guard case .uint32(let id) = call.arguments[0], case .bool(let over) = call.arguments[1] else { return [] }
                let now = self.now.monotonic
                if over { attention.server.pauseExpiry(id, now: now) } else { attention.server.resumeExpiry(id, now: now) }
                apply([])
                return []
            },
            "Reload": { [unowned self] _ in [.stringArray(reload().map(\.description))] },
        ]
    }
}
