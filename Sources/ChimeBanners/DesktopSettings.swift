import CGioUnix
import ChimeGLib

/// The icon theme, font and font resolution GTK programs of this user draw with, so banners drawn
/// without GTK read as the rest of the desktop. GTK 3's settings.ini (`gtk-icon-theme-name`,
/// `gtk-font-name`, `gtk-xft-dpi`), over which on X11 what the desktop says (`XSettings`), and on
/// Wayland GNOME's settings (`org.gnome.desktop.interface`, which `gsettings set` changes on any
/// desktop) when that schema is installed.
struct DesktopSettings {
    var iconTheme = "Adwaita"
    var font = "Sans 10"
    /// Dots per inch text is drawn at: 96 unless the desktop says otherwise.
    var dpi = 96.0

    /// `x11`: what the X11 desktop says; nil on Wayland.
    init(x11: XSettings?) {
        if let file = Self.settingsFile() {
            if let theme = file.string("Settings", "gtk-icon-theme-name"), !theme.isEmpty { iconTheme = theme }
            if let font = file.string("Settings", "gtk-font-name"), !font.isEmpty { self.font = font }
            if let dpi = file.string("Settings", "gtk-xft-dpi").flatMap({ Double($0) }), dpi > 0 { self.dpi = dpi / 1024 }
        }
        if let x11 {
            if let theme = x11.iconTheme { iconTheme = theme }
            if let font = x11.font { self.font = font }
            if let dpi = x11.dpi { self.dpi = dpi }
            return
        }
        guard let interface = Self.gnomeInterface() else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(interface)) }
        func string(_ key: String) -> String? {
            guard let value = g_settings_get_string(interface, key) else { return nil }
            defer { g_free(value) }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        if let theme = string("icon-theme") { iconTheme = theme }
        if let font = string("font-name") { self.font = font }
        let factor = g_settings_get_double(interface, "text-scaling-factor")
        if factor > 0 { dpi = 96 * factor }
    }

    private static func settingsFile() -> KeyFile? {
        let path = String(cString: g_get_user_config_dir()) + "/gtk-3.0/settings.ini"
        guard case .success(let text) = FileContents.read(path) else { return nil }
        let file = KeyFile()
        return file.load(text) == nil ? file : nil
    }

    /// GNOME's interface settings, when their schema is installed (asking for a schema that is
    /// not ends the process).
    private static func gnomeInterface() -> UnsafeMutablePointer<GSettings>? {
        let id = "org.gnome.desktop.interface"
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, id, 1) else { return nil }
        g_settings_schema_unref(schema)
        return g_settings_new(id)
    }
}
