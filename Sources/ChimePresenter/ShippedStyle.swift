import CGtk

/// The look of the banners and the panel: the shipped style sheet, with the user's style.css
/// over it. Applied to the whole screen, so the panel has it in a process that draws no banners.
public enum ShippedStyle {
    /// `user`: the user's style sheet, when there is one; one that cannot be read is said in the log.
    /// Returns the user's sheet as applied, for `chimectl reload` to read it again.
    public static func apply(user css: String?, log: @escaping (String) -> Void) -> UserStyleSheet {
        let shipped = gtk_css_provider_new()
        gtk_css_provider_load_from_data(shipped, Self.css, -1, nil)
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(shipped), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        let user = UserStyleSheet(log: log)
        user.load(css)
        return user
    }

    /// Dark and rounded, with time-sensitive and critical set apart.
    static let css = """
        window.chime-banner, window.chime-more { background-color: #23252b; color: #eceff4; border: 1px solid #3b3f4a; border-radius: 10px; }
        window.chime-banner .content { padding: 12px; }
        window.chime-banner .app-name { font-size: 0.85em; color: #a3a9b7; }
        window.chime-banner .summary { font-weight: bold; font-size: 1.1em; }
        window.chime-banner .body { font-size: 0.95em; }
        window.chime-banner .age { font-size: 0.85em; color: #a3a9b7; margin-right: 6px; }
        window.chime-banner .level-tag { font-size: 0.8em; font-weight: bold; margin-right: 6px; }
        window.chime-banner.time-sensitive .level-tag { color: #f0b429; }
        window.chime-banner.critical .level-tag { color: #ff8a8a; }
        window.chime-banner entry { background: #1b1d22; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; }
        window.chime-banner entry:focus { border-color: #6d9eeb; }
        window.chime-banner progressbar trough { background: #353945; border: none; min-height: 6px; }
        window.chime-banner progressbar progress { background: #6d9eeb; border: none; min-height: 6px; }
        window.chime-banner .body-image { margin-top: 4px; }
        window.chime-banner button { padding: 4px 10px; background: #353945; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; text-shadow: none; -gtk-icon-shadow: none; }
        window.chime-banner button:hover { background: #414655; }
        window.chime-banner button.close { padding: 0; min-height: 16px; min-width: 16px; background: none; border: none; color: #a3a9b7; }
        window.chime-banner button.destructive-action { background: #b83a3a; color: #ffffff; }
        window.chime-banner.passive { opacity: 0.92; }
        window.chime-banner.time-sensitive { background-color: #2c2819; border: 2px solid #e5a50a; }
        window.chime-banner.critical { background-color: #5c1a1a; border: 2px solid #ff5c5c; }
        window.chime-more label { color: #a3a9b7; padding: 4px; }
        window.chime-actions { background-color: #353945; border-color: #4a4f5c; border-radius: 6px; padding: 0; }
        window.chime-actions button.menu-item { background: none; border: none; border-radius: 0; padding: 0 12px; min-height: 0; }
        window.chime-actions button.menu-item:hover, window.chime-actions button.menu-item:focus { background: #2f4f7f; }
        window.chime-center { background-color: #1b1d22; color: #eceff4; }
        window.chime-center .center-header { padding: 12px; background-color: #23252b; border-bottom: 1px solid #3b3f4a; }
        window.chime-center .center-title { font-weight: bold; font-size: 1.25em; }
        window.chime-center .focus-line { color: #a3a9b7; }
        window.chime-center .config-problem { color: #1b1d22; background: #e5c07b; padding: 4px 8px; border-radius: 4px; }
        window.chime-center button { padding: 4px 10px; background: #353945; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; text-shadow: none; -gtk-icon-shadow: none; }
        window.chime-center button:hover, window.chime-center button:focus { background: #414655; border-color: #6d9eeb; }
        window.chime-center button:checked, window.chime-center button.focus-on { background: #2f4f7f; border-color: #6d9eeb; }
        window.chime-center button.close { padding: 0; min-height: 16px; min-width: 16px; background: none; border: none; color: #a3a9b7; }
        window.chime-center entry { margin: 8px 12px; background: #23252b; color: #eceff4; border: 1px solid #4a4f5c; box-shadow: none; }
        window.chime-center entry:focus { border-color: #6d9eeb; }
        window.chime-center list { background: transparent; padding: 0 12px 12px 12px; }
        window.chime-center row { padding: 2px 0; background: transparent; color: #eceff4; }
        window.chime-center row:focus { outline: none; background: #2a2d35; }
        window.chime-center row.center-item { margin: 3px 0; background-color: #23252b; border: 1px solid #3b3f4a; border-radius: 8px; }
        window.chime-center row.center-item:focus { border-color: #6d9eeb; background-color: #2a2d35; }
        window.chime-center row.center-item.unread { border-left: 4px solid #6d9eeb; }
        window.chime-center row.center-item.time-sensitive { border-color: #e5a50a; }
        window.chime-center row.center-item.critical { border-color: #ff5c5c; }
        window.chime-center .content { padding: 8px 10px; }
        window.chime-center .player-card { margin: 0 12px 8px 12px; padding: 8px 10px; background-color: #23252b; border: 1px solid #3b3f4a; border-radius: 8px; }
        window.chime-center .player-art { margin-right: 2px; }
        window.chime-center button.player-button { padding: 4px 8px; }
        window.chime-center .center-group { padding-top: 10px; }
        window.chime-center .group-name { font-weight: bold; }
        window.chime-center .center-section { padding-top: 10px; font-weight: bold; color: #f0b429; }
        window.chime-center .center-summary { padding-top: 10px; font-weight: bold; color: #6d9eeb; }
        window.chime-center .center-more { color: #6d9eeb; padding: 4px; }
        window.chime-center .center-empty { color: #a3a9b7; padding: 24px; }
        window.chime-center .age { font-size: 0.85em; color: #a3a9b7; }
        window.chime-center .offer label { font-size: 0.9em; color: #f0b429; }
        window.chime-center .reason { font-size: 0.85em; color: #a3a9b7; font-style: italic; }
        window.chime-center .summary { font-weight: bold; }
        window.chime-center .body { font-size: 0.95em; }
        window.chime-center .activity { padding: 12px; }
        window.chime-center .activity-table .heading { font-size: 0.85em; color: #a3a9b7; }
        menu.focus-durations { background-color: #23252b; color: #eceff4; border: 1px solid #3b3f4a; }
        menu.focus-durations menuitem:hover { background-color: #2f4f7f; }
        """
}

/// The user's style.css over the shipped style, read again on `chimectl reload`: what is on
/// screen takes the new look at once.
public final class UserStyleSheet {
    private var provider: UnsafeMutablePointer<GtkCssProvider>?
    private let log: (String) -> Void

    init(log: @escaping (String) -> Void) { self.log = log }

    /// Replaces the sheet in force with the one at `css` (none: the shipped style alone).
    public func load(_ css: String?) {
        if let provider {
            gtk_style_context_remove_provider_for_screen(gdk_screen_get_default(), OpaquePointer(provider))
            g_object_unref(UnsafeMutableRawPointer(provider))
            self.provider = nil
        }
        guard let css else { return }
        let user = gtk_css_provider_new()!
        var error: UnsafeMutablePointer<GError>?
        guard gtk_css_provider_load_from_path(user, css, &error) != 0 else {
            log("\(css): \(error.map { String(cString: $0.pointee.message) } ?? "cannot be read"); using the shipped style")
            g_error_free(error)
            g_object_unref(UnsafeMutableRawPointer(user))
            return
        }
        gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), OpaquePointer(user), UInt32(GTK_STYLE_PROVIDER_PRIORITY_USER))
        provider = user
    }
}
