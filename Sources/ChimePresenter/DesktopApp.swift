import CGtk

/// An app's desktop file as GIO finds applications (XDG_DATA_HOME and XDG_DATA_DIRS): its icon
/// for a banner that has none, and its name for an X11 launch's feedback; and the desktop's
/// handler for a link or a file.
enum DesktopApp {
    /// Opens `uri` with the handler the desktop chose for it (mimeapps.list), with the display's
    /// launch context, so the program gets the activation token and comes to the front. False,
    /// and why in the log, when nothing opens it.
    static func open(_ uri: String, log: (String) -> Void) -> Bool {
        let context = gdk_display_get_app_launch_context(gdk_display_get_default())
        defer { if let context { g_object_unref(UnsafeMutableRawPointer(context)) } }
        var error: UnsafeMutablePointer<GError>?
        let opened = g_app_info_launch_default_for_uri(uri, UnsafeMutablePointer<GAppLaunchContext>(context), &error) != 0
        if let error {
            log("cannot open \(uri): \(String(cString: error.pointee.message))")
            g_error_free(error)
        }
        return opened
    }

    /// The GDesktopAppInfo for `entry` (with or without ".desktop"); the caller unrefs it.
    static func info(_ entry: String) -> OpaquePointer? {
        g_desktop_app_info_new(entry.hasSuffix(".desktop") ? entry : entry + ".desktop")
    }
}
