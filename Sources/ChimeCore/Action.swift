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

    /// Pairs the flat list, or says why it cannot be paired.
    public static func pairs(from flat: [String]) -> Result<[Action], RequestError> {
        guard flat.count.isMultiple(of: 2) else { return .failure(unpaired(flat.count)) }
        return .success(stride(from: 0, to: flat.count, by: 2).map { Action(key: flat[$0], label: flat[$0 + 1]) })
    }

    /// Why a list of `count` strings, an odd number, is not a list of actions.
    public static func unpaired(_ count: Int) -> RequestError {
        .invalidArgument("actions must be key/label pairs, got an odd number of strings (\(count))")
    }
}
