@testable import ChimeCore

/// Builders that keep tests about one thing each.
extension NotificationRequest {
    static func make(app: String = "app", summary: String = "Hello", body: String = "",
                     replaces: UInt32 = 0, actions: [String] = [], timeout: Int32 = -1,
                     hints: [String: BusValue] = [:]) -> NotificationRequest {
        var problems: [String] = []
        let decoded = NotificationHints(decoding: hints, problems: &problems)
        return NotificationRequest(appName: app, replacesID: replaces, summary: summary, body: body,
                                   actions: stride(from: 0, to: actions.count - 1, by: 2).map { Action(key: actions[$0], label: actions[$0 + 1]) }, hints: decoded,
                                   expireTimeout: timeout)
    }
}

extension Instant {
    static func at(_ ms: Int64) -> Instant { Instant(milliseconds: ms) }
}

extension ServerEvent {
    var closedReason: CloseReason? {
        if case .closed(_, let reason) = self { return reason }
        return nil
    }

    var closedID: UInt32? {
        if case .closed(let notification, _) = self { return notification.id }
        return nil
    }

    var retiredID: UInt32? {
        if case .retired(let notification) = self { return notification.id }
        return nil
    }

    var id: UInt32 {
        switch self {
        case .presented(let n), .updated(let n, _), .stored(let n), .withdrawn(let n), .closed(let n, _), .actionInvoked(let n, _), .replied(let n, _),
             .playSound(let n, _), .runHook(let n, _), .snoozed(let n), .retired(let n), .merged(let n, _): n.id
        case .read(let id, _), .deleted(let id): id
        case .ruleTurnedOff, .focusChanged, .overRateLimit, .appStateChanged, .idsReserved: 0
        }
    }
}
