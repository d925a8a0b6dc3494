/// What chimed and the clients of its control interface (chimectl, chime-presenter, bars) agree
/// on besides `dbus/dev.chime.Chime1.xml`: where the interface is, and how the presenter says it
/// could not open the display.
public enum ControlProtocol {
    public static let name = "dev.chime.Chime1"
    public static let path = "/dev/chime/Chime1"

    /// chime-presenter's exit status when it cannot open the display; chimed then tries again a
    /// few times.
    public static let displayUnavailable: Int32 = 3
    /// chime-presenter's exit status when it had nothing on screen for `[popups] idle-exit`:
    /// chimed starts it again for the next banner.
    public static let idleExit: Int32 = 4
    /// chime-banners' exit status when GTK's banners are what this desktop needs (a Wayland
    /// compositor without wlr-layer-shell, the user's style.css, a screen reader; it says which):
    /// chimed has chime-presenter draw them instead.
    public static let needsGTKBanners: Int32 = 5
    /// How many local days of activity the center keeps, and `Activity` may ask for.
    public static let activityDays = 400
}
