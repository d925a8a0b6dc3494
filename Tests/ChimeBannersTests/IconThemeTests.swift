import Testing
@testable import ChimeBanners

/// Themed icons found as GTK finds them, without GTK: the theme's folder of the size asked for,
/// else the nearest, else what the theme inherits and hicolor.
@Suite struct IconThemeTests {
    @Test func anIconIsFoundInTheFolderOfItsSize() {
        let theme = IconTheme()
        #expect(theme.file("mail-unread", size: 48) == "/usr/share/icons/Adwaita/48x48/legacy/mail-unread.png")
        #expect(theme.file("mail-unread", size: 24) == "/usr/share/icons/Adwaita/24x24/legacy/mail-unread.png")
    }

    @Test func aSizeNoFolderHasTakesTheNearest() {
        #expect(IconTheme().file("mail-unread", size: 50) == "/usr/share/icons/Adwaita/48x48/legacy/mail-unread.png")
    }

    @Test func aNameNoThemeHasOrAPathFindsNothing() {
        let theme = IconTheme()
        #expect(theme.file("no-such-icon-anywhere", size: 48) == nil)
        #expect(theme.file("../48x48/legacy/mail-unread", size: 48) == nil)
        #expect(theme.file("", size: 48) == nil)
    }
}
