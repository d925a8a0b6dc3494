import CGtk

/// An app's desktop file as GIO finds applications (XDG_DATA_HOME and XDG_DATA_DIRS): its icon
/// for a banner that has none, and its name for an X11 launch's feedback.
enum DesktopApp {
    /// The GDesktopAppInfo for `entry` (with or without ".desktop"); the caller unrefs it.
    static func info(_ entry: String) -> OpaquePointer? {
        g_desktop_app_info_new(entry.hasSuffix(".desktop") ? entry : entry + ".desktop")
    }
}
