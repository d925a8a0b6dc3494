/// What Chime offers the person about a notification's app (keep a provisional app, turn its
/// time-sensitive ones off, let them through again), said with the notification that caused it,
/// as Apple says it on the notification itself: a line and its actions in its banner's menu, its
/// panel entry and `chimectl show`. Never a notification of its own, which would interrupt where
/// the one it speaks of may not.
public struct Offer: Equatable, Sendable {
    public var text: String
    /// Chime's own actions (`chime:…`), done inside chimed (`Attention.invoke`).
    public var actions: [Action]

    public init(text: String, actions: [Action]) {
        self.text = text
        self.actions = actions
    }

    public func offers(_ key: String) -> Bool { actions.contains { $0.key == key } }

    public static let keep = Attention.actionPrefix + "keep"
    public static let turnOff = Attention.actionPrefix + "turn-off"
    public static let turnOffTimeSensitive = Attention.actionPrefix + "time-sensitive-off"
    public static let letTimeSensitiveThrough = Attention.actionPrefix + "time-sensitive-allow"

    /// The first notification of an app delivered provisionally: keep it, or turn it off.
    static func provisional(_ appName: String) -> Offer {
        Offer(text: tr("{app} is delivered quietly to the center until you choose.", ["app": appName]),
              actions: [Action(key: keep, label: tr("Keep")), Action(key: turnOff, label: tr("Turn Off"))])
    }

    /// The app's first time-sensitive notification: what it means, and a way out.
    static func explainingTimeSensitive(_ appName: String) -> Offer {
        Offer(text: tr("Time-Sensitive: {app} may break through Focus and scheduled summaries with these.", ["app": appName]),
              actions: [Action(key: turnOffTimeSensitive, label: tr("Turn Off Time-Sensitive"))])
    }

    /// The notification that took the app past its time-sensitive budget.
    static func overBudget(_ appName: String, perHour: Int) -> Offer {
        Offer(text: trn("{app} sent more than {n} Time-Sensitive notification in an hour: they now arrive as ordinary ones.",
                        "{app} sent more than {n} Time-Sensitive notifications in an hour: they now arrive as ordinary ones.", perHour, ["app": appName]),
              actions: [Action(key: letTimeSensitiveThrough, label: tr("Let Them Through"))])
    }
}
