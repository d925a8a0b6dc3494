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

    /// Fonts, as GTK's default "Sans 10" and the style sheet's sizes relative to it.
    static let appNameFont = "Sans 8.5"
    static let summaryFont = "Sans Bold 11"
    static let bodyFont = "Sans 9.5"
    static let tagFont = "Sans Bold 8"
    static let buttonFont = "Sans 10"

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
