/// Where each banner goes: newest nearest the anchored edge, at most `maximumVisible`, the
/// rest counted in a "+N more" line. Pure arithmetic, so it is tested without a display.
public struct BannerStack: Equatable, Sendable {
    public struct Placement: Equatable, Sendable {
        public var id: UInt32
        /// Top-left corner of the banner on the monitor.
        public var x: Int
        public var y: Int
    }

    public var placements: [Placement]
    /// Banners beyond the visible ones.
    public var hidden: Int
    /// Where the "+N more" line goes, when there is one.
    public var moreAt: (x: Int, y: Int)?

    public static func == (lhs: BannerStack, rhs: BannerStack) -> Bool {
        lhs.placements == rhs.placements && lhs.hidden == rhs.hidden && lhs.moreAt?.x == rhs.moreAt?.x && lhs.moreAt?.y == rhs.moreAt?.y
    }

    /// `banners`: ids with their heights, newest first; `monitor`: its size in pixels.
    public init(banners: [(id: UInt32, height: Int)], monitor: (width: Int, height: Int), settings: PopupSettings) {
        let visible = banners.prefix(max(1, settings.maximumVisible))
        let x: Int
        switch settings.anchor {
        case .topLeft, .bottomLeft: x = settings.margin
        case .top, .bottom: x = (monitor.width - settings.width) / 2
        case .topRight, .bottomRight: x = monitor.width - settings.width - settings.margin
        }
        var offset = settings.margin
        placements = visible.map { banner in
            let y = settings.anchor.isTop ? offset : monitor.height - offset - banner.height
            offset += banner.height + settings.gap
            return Placement(id: banner.id, x: x, y: y)
        }
        hidden = banners.count - visible.count
        moreAt = hidden > 0 ? (x, settings.anchor.isTop ? offset : monitor.height - offset - Self.moreHeight) : nil
    }

    /// The height of the "+N more" line.
    public static let moreHeight = 28
}
