import CGtk
import ChimeControl
import ChimeCore

/// What lets the app whose action was clicked raise its window: on Wayland an xdg-activation
/// token the compositor issues for this click, on X11 a startup id carrying the click's X server
/// time. Made by GDK as it makes them for a launcher (`GdkAppLaunchContext`), since only the
/// process that took the click can ask for one; chimed passes it to the app in ActivationToken.
/// A token chimed made up itself is refused by compositors, and the app's window stays behind.
enum ActivationToken {
    /// nil when GDK makes none (no display).
    static func forCurrentEvent(_ content: BannerContent) -> String? {
        forCurrentEvent(desktopEntry: content.desktopEntry, appName: content.appName)
    }

    static func forCurrentEvent(desktopEntry: String?, appName: String) -> String? {
        guard let display = gdk_display_get_default(), let context = gdk_display_get_app_launch_context(display) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        // The click's time: X11 puts it in the id, for the window manager's focus rules.
        gdk_app_launch_context_set_timestamp(context, gtk_get_current_event_time())
        guard let info = appInfo(desktopEntry: desktopEntry, appName: appName) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        let launch = UnsafeMutableRawPointer(context).assumingMemoryBound(to: GAppLaunchContext.self)
        guard let id = g_app_launch_context_get_startup_notify_id(launch, info, nil) else { return nil }
        defer { g_free(id) }
        return String(cString: id)
    }

    /// The app as GIO knows it: its desktop file when the notification names one, so an X11
    /// launch feedback names the app; else a stand-in with the app's name.
    private static func appInfo(desktopEntry: String?, appName: String) -> OpaquePointer? {
        if let info = desktopEntry.flatMap(DesktopApp.info) { return info }
        return g_app_info_create_from_commandline("true", appName.isEmpty ? "app" : appName, G_APP_INFO_CREATE_NONE, nil)
    }
}
