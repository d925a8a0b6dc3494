import ChimeControl
import ChimeCore

/// What draws the banners a `BannerFeed` hears of: chime-banners' own windows or
/// chime-presenter's GTK ones.
public protocol BannerBoard: AnyObject {
    /// Shows a notification, or redraws it in place when its id is already shown, at the next
    /// `arrange`.
    func show(_ content: BannerContent)
    /// Shows a notification where `previous` was shown (its thread's banner), or as a new one.
    func show(_ content: BannerContent, replacing previous: UInt32)
    func hide(_ id: UInt32)
    /// Draws the visible banners, places them, and counts the rest in "+N more": once for all
    /// that `show` and `hide` changed in a turn of the feed, so a burst of a thousand draws the
    /// last few, not every one.
    func arrange()
    /// Whether any banner is on screen (or waits in "+N more").
    var isShowing: Bool { get }
    /// While the panel is open it shows every notification itself: banners wait off the screen.
    var suspended: Bool { get set }
    func update(_ settings: PopupSettings)
}
