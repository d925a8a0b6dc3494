import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeStore

/// The center methods of dev.chime.Chime1 (chimed(1)'s notification center): history, show, read,
/// restore, snooze, delete, clear, badges, and actions on notifications that already closed.
extension ControlInterface {
    func centerHandlers() -> [String: ExportedInterface.Handler] {
        [
            "History": { [unowned self] call throws(BusError) in
                let filter = call.arguments[0].vardictEntries ?? [:]
                var query = NotificationStore.Filter()
                query.app = filter["app"]?.string
                query.thread = filter["thread"]?.string
                query.state = filter["state"]?.string
                if let state = query.state, !NotificationState.centerStates.contains(state) {
                    throw .invalidArgs("'\(state)' is not a state; states are: " + NotificationState.centerStates.joined(separator: ", "))
                }
                if let limit = filter["limit"]?.integer {
                    guard (1...10_000).contains(limit) else { throw .invalidArgs("limit must be 1 to 10000") }
                    query.limit = Int(limit)
                }
                if let seconds = filter["since-seconds"]?.integer {
                    guard seconds > 0 else { throw .invalidArgs("since-seconds must be a positive number of seconds") }
                    query.since = LocalClock.wallMilliseconds() - seconds * 1_000
                }
                if let text = filter["text"]?.string {
                    guard !text.isEmpty else { throw .invalidArgs("text must not be empty") }
                    query.text = text
                }
                query.before = try RecordPage.after(filter)
                // One more than the page may hold, so a full page knows whether another follows.
                var page = RecordPage(limit: query.limit)
                query.limit += 1
                let asShown = filter["as-shown"]?.bool == true
                try requireStore().history(query) { kept in
                    let id = kept.id
                    let entry = NotificationRecord.entries(kept)
                    guard asShown, let shown = self.redactedIfHidden(entry) else { return page.add(.vardict(entry), id: id) }
                    // A search must not find what the screen hides: such an entry matches by its app's name alone.
                    let name = shown.first { $0.0 == "summary" }?.1.string ?? ""
                    if let text = query.text, !name.containsFolded(text) { return true }
                    return page.add(.vardict(shown), id: id)
                }
                return page.reply
            },
            "PlayAttachment": { [unowned self] call throws(BusError) in
                try effects.playAttachment(of: try centerNotification(call.arguments[0].uint32 ?? 0), index: Int(call.arguments[1].uint32 ?? 0),
                                           sounds: core.attention.settings.sounds)
                return []
            },
            "Show": { [unowned self] call throws(BusError) in
                let id = call.arguments[0].uint32 ?? 0
                let open = core.attention.server.notification(id)
                if let kept = store?.entry(id) {
                    // Every field List has (rules only while it is open: the center keeps what they
                    // decided, not their names), then what the center adds.
                    return [.vardict(NotificationRecord.entries(kept, open: open) + [("open", .bool(open != nil))])]
                }
                guard let open else { throw unknown(id) }
                return [NotificationRecord.busValue(open)]
            },
            "Read": { [unowned self] call throws(BusError) in
                let ids = call.arguments[0].uint32Array
                for id in ids { try requireInCenter(id) }
                core.apply(core.attention.read(ids))
                return []
            },
            "ReadApp": { [unowned self] call throws(BusError) in
                let events = core.attention.readAll(app: try knownApp(named: call.arguments[0].string ?? ""))
                core.apply(events)
                return [.uint32(UInt32(events.count))]
            },
            "ReadAll": { [unowned self] _ in
                let events = core.attention.readAll()
                core.apply(events)
                return [.uint32(UInt32(events.count))]
            },
            "Restore": { [unowned self] call throws(BusError) in
                core.apply(core.attention.presentAgain(try centerNotification(call.arguments[0].uint32 ?? 0), now: core.now))
                return []
            },
            "Snooze": { [unowned self] call throws(BusError) in
                let notification = try centerNotification(call.arguments[0].uint32 ?? 0)
                guard let seconds = call.arguments[1].uint32, (1...366 * 86_400).contains(seconds) else {
                    throw .invalidArgs("snooze for 1 second to 366 days")
                }
                core.apply(core.attention.snooze(notification, seconds: Int64(seconds), now: core.now))
                return []
            },
            "Delete": { [unowned self] call throws(BusError) in
                let id = call.arguments[0].uint32 ?? 0
                try requireInCenter(id)
                core.apply(core.attention.delete([id]))
                return []
            },
            "Clear": { [unowned self] call throws(BusError) in
                let filter = call.arguments[0].vardictEntries ?? [:]
                let store = try requireStore()
                let ids: [UInt32]
                if let listed = filter["ids"] {
                    // What the panel shows of a group: those of them still in the center.
                    guard case .array("u", _) = listed.unwrapped, filter["app"] == nil else {
                        throw .invalidArgs("ids is an array of ids (au), without app")
                    }
                    ids = listed.uint32Array.filter { core.attention.server.notification($0) != nil || store.contains($0) }
                } else {
                    let app = try filter["app"]?.string.map { name throws(BusError) in try knownApp(named: name) }
                    ids = store.ids(app: app)
                }
                core.apply(core.attention.delete(ids))
                return [.uint32(UInt32(ids.count))]
            },
            "GetBadges": { [unowned self] _ in [badgeList()] },
            "Invoke": { [unowned self] call throws(BusError) in try invoke(call, token: "") },
            "InvokeWithToken": { [unowned self] call throws(BusError) in try invoke(call, token: call.arguments[2].string ?? "") },
            "Dismiss": { [unowned self] call throws(BusError) in
                let id = call.arguments[0].uint32 ?? 0
                if core.attention.server.notification(id) != nil {
                    do throws(RequestError) { core.apply(try core.attention.server.dismiss(id)) } catch { throw BusError(error) }
                } else {
                    try requireInCenter(id)
                    core.apply([.read(id, dismissed: true)])
                }
                return []
            },
        ]
    }

    var centerProperties: [String: () -> BusValue] {
        [
            "UnreadCount": { [unowned self] in .uint32(UInt32(core.attention.unread.total)) },
            "Badges": { [unowned self] in badgeList() },
        ]
    }

    /// Every app with unread notifications, with its badge.
    private func badgeList() -> BusValue {
        let apps = core.attention.unread.byApp.keys.sorted()
        return .array(elementSignature: "a{sv}", apps.map { BadgeBoard.record($0, core.attention.badge(for: $0)) })
    }

    /// Refuses ids that are neither open nor in the center, without rebuilding the notification.
    private func requireInCenter(_ id: UInt32) throws(BusError) {
        guard core.attention.server.notification(id) != nil || store?.contains(id) == true else { throw unknown(id) }
    }

    /// The open notification, else the one in the center, rebuilt.
    private func centerNotification(_ id: UInt32) throws(BusError) -> Notification {
        if let open = core.attention.server.notification(id) { return open }
        guard let stored = store?.notification(id) else { throw unknown(id) }
        return decoder.rechecked(stored)
    }

    /// The user chose an action, on a banner (with the token its presenter made for the click)
    /// or from chimectl; an action of a closed notification reaches its app while the app runs.
    private func invoke(_ call: MethodCall, token: String) throws(BusError) -> [BusValue] {
        guard case .uint32(let id) = call.arguments[0], case .string(let key) = call.arguments[1] else { return [] }
        guard token.utf8.count <= 1024 else { throw .invalidArgs("the activation token is over 1024 bytes") }
        // Taken by the ActivationToken signal, which goes out once the turn's replies have.
        if !token.isEmpty { effects.activationTokens[id] = token }
        do throws(BusError) {
            if let open = core.attention.server.notification(id) {
                // Chime's own actions (a prompt's Keep) are done inside chimed; an unknown key is refused below.
                if !key.hasPrefix(Attention.actionPrefix), open.action(key.isEmpty ? Action.defaultKey : key) != nil {
                    try requireSenderPresent(open)
                }
                do throws(RequestError) { core.apply(try core.attention.invoke(id, key: key, now: core.now)) } catch { throw BusError(error) }
            } else {
                try invokeFromHistory(id, key: key)
            }
        } catch {
            effects.activationTokens[id] = nil
            throw error
        }
        return []
    }

    /// A closed notification's action goes to the app that sent it, if it is still on the bus.
    private func invokeFromHistory(_ id: UInt32, key: String) throws(BusError) {
        let notification = try centerNotification(id)
        let actionKey = key.isEmpty ? Action.defaultKey : key
        guard notification.action(actionKey) != nil else { throw BusError(RequestError.unknownAction(id, key)) }
        guard notification.sender != Attention.selfSender else {
            throw .invalidArgs("notification \(id) is Chime's own and has closed; use chimectl apps set instead")
        }
        try requireSenderPresent(notification)
        core.apply([.actionInvoked(notification, key: actionKey)])
    }

    /// An action or reply goes to the connection that sent the notification: refused, rather
    /// than sent nowhere, once that connection has left the bus (Chime's own notifications
    /// act inside chimed).
    func requireSenderPresent(_ notification: Notification) throws(BusError) {
        guard notification.sender != Attention.selfSender else { return }
        guard identities.isPresent(notification.sender) else {
            throw BusError(BusError.appGone, "\(notification.request.appName) is no longer running, so notification \(notification.id)'s action cannot reach it")
        }
    }

    /// A center entry as a screen shows it now: the app's name and a placeholder instead of its
    /// text while its previews are hidden (`Attention.hidesPreviews`), as its banner would be;
    /// nil while they are not.
    private func redactedIfHidden(_ entry: [(String, BusValue)]) -> [(String, BusValue)]? {
        let app = entry.first { $0.0 == "app-identity" }?.1.string ?? ""
        guard core.attention.hidesPreviews(of: app) else { return nil }
        let name = entry.first { $0.0 == "app-name" }?.1.string ?? app
        let category = entry.first { $0.0 == "category" }?.1.string
        return entry.filter { $0.0 != "summary" && $0.0 != "body" && !NotificationRecord.previewKeys.contains($0.0) }
            + [("summary", .string(name)), ("body", .string(HiddenPreview.body(placeholder: nil, category: category))), ("redacted", .bool(true))]
    }

    func requireStore() throws(BusError) -> NotificationStore {
        guard let store else {
            throw BusError(BusError.failed, "chimed keeps no history: it runs with --no-history, or its store could not be opened (see its log)")
        }
        return store
    }

    private func unknown(_ id: UInt32) -> BusError {
        BusError(BusError.unknownObject, "no notification with id \(id) in the center")
    }
}
