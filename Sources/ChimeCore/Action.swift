/// One entry of Notify's flat `[key, label, key, label, ...]` actions list.
public struct Action: Equatable, Sendable {
    public var key: String
    public var label: String

    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }

    /// The click action; it is not drawn as a button.
    public static let defaultKey = "default"
    /// KDE's inline reply: offered as an action, answered with NotificationReplied.
    public static let inlineReplyKey = "inline-reply"

    /// The actions of a flat `[key, label, ...]` list as records and signals carry them; a last
    /// key without a label is left out.
    public static func pairs(_ flat: [String]) -> [Action] {
        stride(from: 0, to: flat.count - 1, by: 2).map { Action(key: flat[$0], label: flat[$0 + 1]) }
    }

    /// Why Notify's flat `[key, label, ...]` list of `count` strings, an odd number, is not a
    /// list of actions (the decoder pairs them as it reads them: `ArgumentReader.stringPairs`).
    public static func unpaired(_ count: Int) -> RequestError {
        .invalidArgument("actions must be key/label pairs, got an odd number of strings (\(count))")
    }
}
