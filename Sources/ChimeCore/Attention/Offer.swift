/// What Chime offers the person about a notification's app (turn its time-sensitive ones off,
/// let them through again), said with the notification that caused it, as Apple says it on the
/// notification itself: a line and an action in its banner's menu, its panel entry and
/// `chimectl show`. Never a notification of its own, which would interrupt where the one it
/// speaks of may not.
public struct Offer: Equatable, Sendable {
    public var text: String
    /// Chime's own action (`chime:…`), done inside chimed (`Attention.invoke`).
    public var action: Action

    public init(text: String, action: Action) {
        self.text = text
        self.action = action
    }

    public static let turnOffTimeSensitive = Attention.actionPrefix + "time-sensitive-off"
    public static let letTimeSensitiveThrough = Attention.actionPrefix + "time-sensitive-allow"

    /// The app's first time-sensitive notification: what it means, and a way out.
    static func explainingTimeSensitive(_ appName: String) -> Offer {
        Offer(text: "Time-Sensitive: \(appName) may break through Focus and scheduled summaries with these.",
              action: Action(key: turnOffTimeSensitive, label: "Turn Off Time-Sensitive"))
    }

    /// The notification that took the app past its time-sensitive budget.
    static func overBudget(_ appName: String, perHour: Int) -> Offer {
        Offer(text: "\(appName) sent more than \(perHour) Time-Sensitive notifications in an hour: they now arrive as ordinary ones.",
              action: Action(key: letTimeSensitiveThrough, label: "Let Them Through"))
    }
}
