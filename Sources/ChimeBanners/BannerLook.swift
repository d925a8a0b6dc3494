import CDraw
import ChimeCore

/// The shipped look of a banner, the same as chime-presenter's style sheet draws: dark and
/// rounded, time-sensitive and critical set apart by their colours and a wider border.
struct BannerLook {
    struct Colour {
        var red: Double, green: Double, blue: Double

        /// From 0xRRGGBB.
        init(_ hex: UInt32) {
            red = Double(hex >> 16 & 0xff) / 255
            green = Double(hex >> 8 & 0xff) / 255
            blue = Double(hex & 0xff) / 255
        }
    }

    var background = Colour(0x23252b)
    var border = Colour(0x3b3f4a)
    var borderWidth = 1.0
    var text = Colour(0xeceff4)
    var secondary = Colour(0xa3a9b7)
    var levelTag = Colour(0xa3a9b7)
    var button = Colour(0x353945)
    var buttonHover = Colour(0x414655)
    var buttonBorder = Colour(0x4a4f5c)
    var destructive = Colour(0xb83a3a)
    var field = Colour(0x1b1d22)
    var progressTrough = Colour(0x353945)
    var progress = Colour(0x6d9eeb)
    var radius = 10.0
    var padding = 12.0

    init(level: InterruptionLevel) {
        switch level {
        case .timeSensitive:
            background = Colour(0x2c2819)
            border = Colour(0xe5a50a)
            borderWidth = 2
            levelTag = Colour(0xf0b429)
        case .critical:
            background = Colour(0x5c1a1a)
            border = Colour(0xff5c5c)
            borderWidth = 2
            levelTag = Colour(0xff8a8a)
        case .passive, .active:
            break
        }
    }
}

/// A banner's fonts: the desktop's (`DesktopSettings`), at the style sheet's sizes relative to it
/// (its em), as chime-presenter's GTK banners draw them.
struct BannerFonts {
    let appName, summary, body, tag, button: String

    init(desktop: String) {
        let base = pango_font_description_from_string(desktop)
        defer { pango_font_description_free(base) }
        let size = pango_font_description_get_size(base) > 0 ? Double(pango_font_description_get_size(base)) : 10 * Double(PANGO_SCALE)
        func font(_ scale: Double, bold: Bool = false) -> String {
            let description = pango_font_description_copy(base)
            defer { pango_font_description_free(description) }
            pango_font_description_set_size(description, Int32(size * scale))
            if bold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
            guard let text = pango_font_description_to_string(description) else { return desktop }
            defer { g_free(text) }
            return String(cString: text)
        }
        appName = font(0.85)
        summary = font(1.1, bold: true)
        body = font(0.95)
        tag = font(0.8, bold: true)
        button = font(1)
    }
}
