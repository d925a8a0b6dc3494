/// The banners a presenter shows, newest first, and one that replaces its thread's banner in that
/// banner's place.
/// Each change says which ids need drawing anew.
public struct BannerQueue: Sendable {
    public private(set) var contents: [BannerContent] = []

    public init() {}

    /// Adds a notification, or puts its new content in place when its id is already there.
    /// Returns the id whose drawing is out of date, if any.
    @discardableResult
    public mutating func show(_ content: BannerContent) -> UInt32? {
        if let index = contents.firstIndex(where: { $0.id == content.id }) {
            contents[index] = content
            return content.id
        }
        contents.insert(content, at: 0)
        return nil
    }

    /// Puts a notification where `previous` was (its thread's banner), or adds it as a new one.
    /// Returns the ids whose drawings are out of date.
    @discardableResult
    public mutating func show(_ content: BannerContent, replacing previous: UInt32) -> [UInt32] {
        guard contents.contains(where: { $0.id == previous }) else { return show(content).map { [$0] } ?? [] }
        contents.removeAll { $0.id == content.id }
        if let index = contents.firstIndex(where: { $0.id == previous }) { contents[index] = content }
        return [previous, content.id]
    }

    /// Removes a notification; false when it was not there.
    @discardableResult
    public mutating func hide(_ id: UInt32) -> Bool {
        guard let index = contents.firstIndex(where: { $0.id == id }) else { return false }
        contents.remove(at: index)
        return true
    }

    public var isEmpty: Bool { contents.isEmpty }
}
