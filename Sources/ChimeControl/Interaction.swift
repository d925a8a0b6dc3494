/// What chime-banners asks chime-presenter to open over one of its banners: the reply field
/// (typed into with GTK, so input methods work) or the menu of its actions. Passed on
/// chime-presenter's command line; the banner's content it reads from chimed (`Show`).
public struct Interaction: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// The reply field, over the banner's.
        case reply
        /// Every action, at the pointer (a click set to `menu`).
        case menu
        /// The actions past the four buttons, under the "more" button.
        case more
    }

    public var kind: Kind
    public var id: UInt32
    /// What it opens over (the field) or at (the pointer, the button), in the work area's
    /// coordinates, as the banners are placed; and that area.
    public var x: Int, y: Int, width: Int, height: Int
    public var area: (x: Int, y: Int, width: Int, height: Int)

    public init(kind: Kind, id: UInt32, x: Int, y: Int, width: Int, height: Int, area: (x: Int, y: Int, width: Int, height: Int)) {
        (self.kind, self.id, self.x, self.y, self.width, self.height, self.area) = (kind, id, x, y, width, height, area)
    }

    public static func == (lhs: Interaction, rhs: Interaction) -> Bool { lhs.arguments == rhs.arguments }

    /// chime-presenter's arguments for it.
    public var arguments: [String] {
        ["--\(kind.rawValue)", String(id), "--at", "\(x),\(y),\(width),\(height)", "--area", "\(area.x),\(area.y),\(area.width),\(area.height)"]
    }

    /// Reads `arguments`; nil when they are not one.
    public init?(arguments: [String]) {
        guard arguments.count == 6, arguments[0].hasPrefix("--"), let kind = Kind(rawValue: String(arguments[0].dropFirst(2))),
              let id = UInt32(arguments[1]), arguments[2] == "--at", arguments[4] == "--area" else { return nil }
        let at = arguments[3].split(separator: ",").compactMap { Int($0) }
        let area = arguments[5].split(separator: ",").compactMap { Int($0) }
        guard at.count == 4, area.count == 4 else { return nil }
        self.init(kind: kind, id: id, x: at[0], y: at[1], width: at[2], height: at[3], area: (area[0], area[1], area[2], area[3]))
    }
}
