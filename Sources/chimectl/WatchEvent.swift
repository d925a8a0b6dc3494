import ChimeCore
import ChimeDBus

/// The JSON line `chimectl watch` prints for a signal, or nil for signals it ignores.
enum WatchEvent {
    static func line(for message: Message) -> String? {
        let arguments = message.arguments
        if message.interface == ControlClient.name, message.member == "FocusChanged", arguments.count == 2 {
            return JSONText.object([("event", .string("focus"))] + Commands.ordered(arguments[1].vardictEntries ?? [:]))
        }
        if message.interface == ControlClient.name, message.member == "BadgesChanged", arguments.count == 2 {
            return JSONText.object([("event", .string("badges")), ("unread", arguments[1]),
                                    ("badges", .array(elementSignature: "a{sv}", arguments[0].records.map { .vardict(Commands.ordered($0)) }))])
        }
        if message.interface == ControlClient.name, message.member == "PlayersChanged", arguments.count == 1 {
            return JSONText.object([("event", .string("players")),
                                    ("players", .array(elementSignature: "a{sv}", arguments[0].records.map { .vardict(Commands.ordered($0)) }))])
        }
        guard case .uint32(let id)? = arguments.first else { return nil }
        switch (message.interface, message.member) {
        case (ControlClient.name, "Presented"), (ControlClient.name, "Stored"):
            let notification = arguments.count > 1 ? arguments[1].vardictEntries ?? [:] : [:]
            return JSONText.object([("event", .string(message.member == "Presented" ? "presented" : "stored")), ("id", .uint32(id)),
                                    ("notification", .vardict(Commands.ordered(notification)))])
        case (ControlClient.name, "Updated"):
            guard arguments.count == 3, case .uint32(let previous) = arguments[1] else { return nil }
            return JSONText.object([("event", .string("updated")), ("id", .uint32(id)), ("previous", .uint32(previous)),
                                    ("notification", .vardict(Commands.ordered(arguments[2].vardictEntries ?? [:])))])
        case (ControlClient.name, "Withdrawn"), ("org.freedesktop.Notifications", "NotificationClosed"):
            guard arguments.count > 1, case .uint32(let code) = arguments[1] else { return nil }
            let event = message.member == "Withdrawn" ? "withdrawn" : "closed"
            return JSONText.object([("event", .string(event)), ("id", .uint32(id)), ("reason", .uint32(code)),
                                    ("reason-name", .string(CloseReason(rawValue: code)?.name ?? "unknown"))])
        default:
            return nil
        }
    }
}
