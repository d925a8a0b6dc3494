import CGioUnix

/// The desktop's apps as GIO knows them: an app's desktop file (found in XDG_DATA_HOME, then
/// XDG_DATA_DIRS), and the handler the desktop chose for a link (mimeapps.list).
enum DesktopApps {
    /// The Icon= of the desktop file `entry` names (a themed name or a file's path), shown for a
    /// notification that brings none, as GNOME Shell and Plasma show it.
    static func icon(_ entry: String) -> String? {
        guard let info = g_desktop_app_info_new(entry.hasSuffix(".desktop") ? entry : entry + ".desktop") else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        guard let icon = g_desktop_app_info_get_string(info, "Icon") else { return nil }
        defer { g_free(icon) }
        let value = String(cString: icon)
        return value.isEmpty ? nil : value
    }

    /// Opens `uri` with the desktop's handler for it. False, and why in the log, when nothing
    /// opens it.
    static func open(_ uri: String, log: (String) -> Void) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let opened = g_app_info_launch_default_for_uri(uri, nil, &error) != 0
        if let error {
            log("cannot open \(uri): \(String(cString: error.pointee.message))")
            g_error_free(error)
        }
        return opened
    }
}
