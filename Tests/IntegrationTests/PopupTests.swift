import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Banners on a real X server (Xvfb): where they appear, how many, what clicks do,
/// and that the pointer over one pauses its expiry.
@Suite struct PopupTests {
    @Test(arguments: Drawing.allCases) func bannersAppearInTheConfiguredCornerNewestFirstAndGoWhenDismissed(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[popups]\nanchor = top-left\nmargin = 20\nwidth = 300\n", display: display, drawing: drawing)
        let first = try bus.client().notify(app: "Mail", summary: "first", timeout: 0)
        _ = try bus.client().notify(app: "Mail", summary: "second", timeout: 0)
        let shown = try display.waitForWindows { $0.count == 2 }
        #expect(shown.map(\.title) == ["chime-banner-2", "chime-banner-1"], "newest nearest the edge")
        #expect(shown.allSatisfy { $0.x == 20 && $0.width == 300 })
        #expect(shown.first?.y == 20)

        let shot = bus.directory.appendingPathComponent("shot.png").path
        try display.screenshot(to: shot)
        #expect(try XDisplay.brightness(x: 30, y: 30, width: 200, height: 20, in: shot) > 0.05, "a banner is drawn there")
        let elsewhere = try XDisplay.brightness(x: 900, y: 30, width: 200, height: 20, in: shot)
        #expect(elsewhere == 0, "nothing in the other corner: \(elsewhere)")

        #expect(try bus.chimectl("dismiss", "\(first)").status == 0)
        let after = try display.waitForWindows { $0.count == 1 }
        #expect(after.map(\.title) == ["chime-banner-2"])
        #expect(try bus.chimectl("dismiss", "--all").status == 0)
        #expect(try display.waitForWindows { $0.isEmpty }.isEmpty)
    }

    /// A symbolic icon (`*-symbolic`, as GNOME apps and volume scripts send) is drawn in the
    /// banner's text colour, as GTK draws them: light on the dark banner, not Adwaita's dark grey.
    @Test(arguments: Drawing.allCases) func aSymbolicIconIsDrawnInTheTextColour(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        _ = try bus.run("notify-send", ["-t", "0", "-i", "audio-volume-high-symbolic", "Volume", "50%"])
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("symbolic.png").path
        // The icon's square (48, inside the border and padding) against the banner's background
        // under it, where nothing is drawn.
        var icon = 0.0, background = 0.0
        try display.screenshot(to: shot) { shot in
            icon = try XDisplay.brightness(x: banner.x + 14, y: banner.y + 14, width: 46, height: 46, in: shot)
            background = try XDisplay.brightness(x: banner.x + 14, y: banner.y + banner.height - 8, width: 46, height: 4, in: shot)
            return icon - background >= 0.08
        }
        #expect(icon - background >= 0.08, "icon \(icon), background \(background)")
    }

    /// Banners of different heights (a wrapped body, buttons, a progress bar) sit one under the
    /// other with the configured gap between them, all on the screen: each is placed by the
    /// height it has at the configured width, not at the narrowest its text could wrap to.
    @Test(arguments: Drawing.allCases) func bannersOfDifferentHeightsStackWithTheGapBetweenThem(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[popups]\ngap = 10\n", display: display, drawing: drawing)
        let client = try bus.client()
        _ = try client.notify(app: "Mail", summary: "Grace Hopper", body: "Found the bug: a moth in relay 70.", timeout: 0)
        _ = try client.notify(app: "Chat", summary: "Ada", body: String(repeating: "The notes on the Analytical Engine are ready. ", count: 3),
                              actions: ["open", "Open", "archive", "Archive"], timeout: 0)
        _ = try client.notify(app: "Files", summary: "Copying photos", body: "412 of 680 files", hints: [("value", .int32(60))], timeout: 0)
        let shown = try display.waitForWindows { $0.count == 3 }
        #expect(Set(shown.map(\.height)).count > 1, "heights differ: \(shown)")
        #expect(shown.first?.y == 12, "\(shown)")
        for (upper, lower) in zip(shown, shown.dropFirst()) {
            #expect(lower.y == upper.y + upper.height + 10, "\(upper.title) then \(lower.title): \(shown)")
        }
        #expect(shown.allSatisfy { $0.y + $0.height <= display.height }, "all on the screen: \(shown)")
    }

    /// A banner that appears while another is drawn anew (one with a picture, whose drawing
    /// waits on the X server) is drawn too: its first Expose once waited unseen in xcb's queue.
    @Test(arguments: Drawing.allCases) func aBannerThatAppearsWhileAnotherIsRedrawnIsDrawn(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let chart = bus.directory.appendingPathComponent("chart.png").path
        #expect(try bus.run("convert", ["-size", "600x400", "xc:red", chart]).status == 0)
        let client = try bus.client()
        _ = try client.notify(summary: "chart", body: "the <img src=\"\(chart)\" alt=\"chart\"/>", timeout: 0)
        let second = try client.notify(summary: "plain", body: "text", timeout: 0)
        let top = try #require(try display.waitForWindows { $0.count == 2 && $0.first?.title == "chime-banner-\(second)" }.first)
        let shot = bus.directory.appendingPathComponent("shot.png").path
        var drawn = 0.0
        try display.screenshot(to: shot, timeout: 5) { shot in
            drawn = try XDisplay.brightness(x: top.x + 4, y: top.y + 4, width: top.width - 8, height: top.height - 8, in: shot)
            return drawn > 0.05
        }
        #expect(drawn > 0.05, "the new banner is drawn: \(drawn)")
    }

    /// Where an X11 desktop says which font GTK programs draw with, or how large: GTK 3's
    /// settings.ini (a desktop without a settings daemon), XSETTINGS (GNOME's and Xfce's settings
    /// daemons; xsettingsd here) over it, or the Xft.dpi resource (`xrdb`).
    enum FontSetting: String, CaseIterable, CustomTestStringConvertible {
        case settingsFile, settingsDaemon, xftResource
        var testDescription: String { rawValue }
    }

    /// Banners take the font GTK programs of the user draw with, or its resolution: a larger one
    /// makes a taller banner, with either program, wherever the desktop says it.
    @Test(arguments: Drawing.allCases, FontSetting.allCases)
    func bannersTakeTheFontOfTheDesktopsGTKPrograms(_ drawing: Drawing, _ setting: FontSetting) throws {
        func height(larger: Bool) throws -> Int {
            let display = try XDisplay()
            let bus = try TestBus(daemon: false, display: display, drawing: drawing)
            var settingsDaemon: Subprocess?
            defer { settingsDaemon?.signal(SIGTERM) }
            switch (larger, setting) {
            case (false, _): break
            case (true, .settingsFile):
                let gtk = bus.directory.appendingPathComponent("config/gtk-3.0")
                try FileManager.default.createDirectory(at: gtk, withIntermediateDirectories: true)
                try "[Settings]\ngtk-font-name = DejaVu Sans 20\n".write(to: gtk.appendingPathComponent("settings.ini"), atomically: true, encoding: .utf8)
            case (true, .settingsDaemon):
                let conf = bus.directory.appendingPathComponent("xsettingsd.conf")
                try "Gtk/FontName \"DejaVu Sans 20\"\n".write(to: conf, atomically: true, encoding: .utf8)
                settingsDaemon = try display.settingsDaemon(config: conf)
            case (true, .xftResource):
                let resources = bus.directory.appendingPathComponent("Xresources")
                try "Xft.dpi: 192\n".write(to: resources, atomically: true, encoding: .utf8)
                try display.run("/usr/bin/xrdb", ["-nocpp", "-merge", resources.path])
            }
            try bus.startDaemon()
            _ = try bus.client().notify(app: "Mail", summary: "The font", body: "of the desktop", timeout: 0)
            return try #require(try display.waitForWindows { $0.count == 1 }.first).height
        }
        let normal = try height(larger: false), large = try height(larger: true)
        #expect(large > normal + 20, "Sans 10 at 96 dpi: \(normal) pixels high; larger by \(setting): \(large)")
    }

    /// When the settings daemon says another font (GNOME's or Xfce's settings changed;
    /// xsettingsd reading its file again here), the banner up is drawn again in it.
    @Test(arguments: Drawing.allCases) func theBannerUpTakesTheDesktopsNewFont(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        let conf = bus.directory.appendingPathComponent("xsettingsd.conf")
        try "Gtk/FontName \"DejaVu Sans 10\"\n".write(to: conf, atomically: true, encoding: .utf8)
        let settingsDaemon = try display.settingsDaemon(config: conf)
        defer { settingsDaemon.signal(SIGTERM) }
        try bus.startDaemon()
        _ = try bus.client().notify(app: "Mail", summary: "The font", body: "of the desktop", timeout: 0)
        let before = try #require(try display.waitForWindows { $0.count == 1 }.first).height
        try "Gtk/FontName \"DejaVu Sans 20\"\n".write(to: conf, atomically: true, encoding: .utf8)
        settingsDaemon.signal(SIGHUP)
        let after = try display.waitForWindows { ($0.first?.height ?? 0) > before + 20 }.first?.height ?? 0
        #expect(after > before + 20, "DejaVu Sans 10: \(before) pixels high; after the change to 20: \(after)")
    }

    /// Banners keep clear of what the window manager reserves (`_NET_WORKAREA`), also when a
    /// panel appears after they started: a new banner goes below it. (chime-banners: GDK reads
    /// the work area only from a window manager that says it supports it.)
    @Test func bannersFollowTheWorkAreaWhenItChanges() throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: .light)
        let client = try bus.client()
        _ = try client.notify(summary: "before the panel", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 1 }.first?.y == 12)
        try display.run("/usr/bin/xprop", ["-root", "-f", "_NET_WORKAREA", "32c", "-set", "_NET_WORKAREA", "0, 40, 1280, 760"])
        let moved = try display.waitForWindows { $0.first?.y == 52 }
        #expect(moved.first?.y == 52, "the banner up moves below the panel at once: \(moved)")
        let second = try client.notify(summary: "after the panel", timeout: 0)
        let shown = try display.waitForWindows { $0.first?.title == "chime-banner-\(second)" && $0.first?.y == 52 }
        #expect(shown.first?.y == 52, "12 below the panel's 40: \(shown)")
    }

    /// On two monitors (sway's Xwayland: XWAYLAND0 1280 wide at the left, XWAYLAND1 right of
    /// it), banners go to the one `[popups] output` names, else to the primary one, in its corner:
    /// not to the right edge of the whole screen.
    @Test(arguments: Drawing.allCases) func onTwoX11MonitorsBannersGoToTheNamedElseThePrimaryOne(_ drawing: Drawing) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xw-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sway = try HeadlessSway(in: folder, width: 1280, height: 800, xwayland: true)
        try sway.swaymsg(["create_output"])
        let display = try XDisplay(xwaylandOf: sway)
        _ = try display.waitForMonitors(2)
        do {
            let named = try TestBus(config: "[popups]\noutput = XWAYLAND0\n", display: display, drawing: drawing)
            _ = try named.client().notify(summary: "on the left monitor", timeout: 0)
            let left = try display.waitForWindows { $0.count == 1 }
            #expect(left.first.map { $0.x + $0.width } == 1280 - 12, "at the right edge of XWAYLAND0: \(left)")
        }
        _ = try display.waitForWindows { $0.isEmpty }

        try display.run("/usr/bin/xrandr", ["--output", "XWAYLAND0", "--primary"])
        let primary = try TestBus(display: display, drawing: drawing)
        _ = try primary.client().notify(summary: "on the primary monitor", timeout: 0)
        let shown = try display.waitForWindows { $0.count == 1 }
        #expect(shown.first.map { $0.x + $0.width } == 1280 - 12, "at the right edge of the primary XWAYLAND0: \(shown)")

        try display.run("/usr/bin/xrandr", ["--output", "XWAYLAND1", "--primary"])
        if drawing == .light {
            // GTK's banners go along only with the next show.
            let along = try display.waitForWindows { $0.first.map { $0.x > 1280 } ?? false }
            #expect(along.first.map { $0.x + $0.width } == 1280 + 1920 - 12, "the banner up goes along at once: \(along)")
        }
        let moved = try primary.client().notify(summary: "after the primary moved", timeout: 0)
        let after = try display.waitForWindows { $0.count == 2 && $0.allSatisfy { $0.x > 1280 } }
        #expect(after.first?.title == "chime-banner-\(moved)")
        #expect(after.allSatisfy { $0.x + $0.width == 1280 + 1920 - 12 }, "at the right edge of XWAYLAND1 now: \(after)")
    }

    /// With GDK_SCALE=2 (GTK's scale for HiDPI screens on X11) a banner is twice as large in
    /// pixels, twice as far from the corner, and its close button is where it is drawn.
    @Test(arguments: Drawing.allCases) func withGDKScaleTwoBannersAreDrawnTwiceAsLarge(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        bus.extraEnvironment = ["GDK_SCALE": "2"]
        try bus.startDaemon()
        let client = try bus.client()
        try client.listen()
        let id = try client.notify(summary: "twice as large", timeout: 0)
        let shown = try display.waitForWindows { $0.count == 1 }
        #expect(shown.first?.width == 2 * 380, "380 units wide: \(shown)")
        let window = try #require(shown.first)
        #expect(window.x + window.width == 1280 - 2 * 12 && window.y == 2 * 12, "12 units from the corner: \(shown)")
        // The close button's middle: 21 units from the banner's right edge and top.
        try display.click(x: window.x + window.width - 2 * 21, y: window.y + 2 * 21)
        #expect(client.waitUntil { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(id), .uint32(2)] } },
                "closed by its close button")
    }

    /// A banner shows at most six lines of body, two of summary and one of app name, however
    /// long they are: sixty lines of body once drew a banner taller than the screen.
    @Test(arguments: Drawing.allCases) func aLongBodyOrSummaryIsCutToAFewLines(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[popups]\nmax-visible = 7\n", display: display, drawing: drawing)
        let client = try bus.client()
        func lines(_ count: Int) -> String { (1...count).map { "line \($0)" }.joined(separator: "\n") }
        _ = try client.notify(summary: "three", body: lines(3), timeout: 0)
        _ = try client.notify(summary: "six", body: lines(6), timeout: 0)
        _ = try client.notify(summary: "sixty", body: lines(60), timeout: 0)
        _ = try client.notify(summary: String(repeating: "a long summary ", count: 20), body: "x", timeout: 0)
        _ = try client.notify(summary: String(repeating: "a long summary ", count: 60), body: "x", timeout: 0)
        _ = try client.notify(app: "short", summary: "s", body: "x", timeout: 0)
        _ = try client.notify(app: String(repeating: "a long app name ", count: 15), summary: "s", body: "x", timeout: 0)
        let shown = try display.waitForWindows { $0.count == 7 }
        let height = Dictionary(uniqueKeysWithValues: shown.map { ($0.title, $0.height) })
        #expect(height["chime-banner-3"] == height["chime-banner-2"], "sixty lines of body show as six: \(shown)")
        #expect(try #require(height["chime-banner-1"]) < height["chime-banner-2"] ?? 0, "three show as three: \(shown)")
        #expect(height["chime-banner-5"] == height["chime-banner-4"], "a summary shows two lines: \(shown)")
        #expect(height["chime-banner-7"] == height["chime-banner-6"], "an app name shows one line: \(shown)")
    }

    /// An icon file that claims more pixels than a banner loads (a few bytes can claim a billion,
    /// which GdkPixbuf would decode whole) or cannot be read is said in the log, and its banner
    /// shows without it.
    @Test(arguments: Drawing.allCases) func aHugeOrBrokenIconFileIsSaidAndTheBannerGoesWithoutIt(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let huge = bus.directory.appendingPathComponent("huge.png")
        try Self.pngHeader(width: 20_000, height: 20_000).write(to: huge)
        let broken = bus.directory.appendingPathComponent("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("not a picture".utf8)).write(to: broken)
        let client = try bus.client()
        let first = try client.notify(icon: huge.path, summary: "huge", timeout: 0)
        let second = try client.notify(icon: broken.path, summary: "broken", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 2 }.count == 2, "both banners show")
        #expect(client.waitUntil(timeout: 10) { bus.daemonLog.contains("banner goes without it") && bus.daemonLog.contains("broken.png") })
        let log = bus.daemonLog
        #expect(log.contains("huge.png is 20000x20000 pixels, more than the 4096x4096 a banner loads; notification \(first)'s banner goes without it"), "\(log)")
        #expect(log.contains("broken.png is not an image GdkPixbuf can read; notification \(second)'s banner goes without it"), "\(log)")
    }

    /// The body's first image (a file chimed checked) is drawn under its text, shrunk to fit the
    /// texts' width and 120 pixels: the banner grows by that and keeps its width. One that claims
    /// too many pixels is said in the log, and the banner goes without it.
    @Test(arguments: Drawing.allCases) func aBodyImageIsDrawnUnderTheTextShrunkToFit(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let chart = bus.directory.appendingPathComponent("chart.png").path
        #expect(try bus.run("convert", ["-size", "600x400", "xc:red", chart]).status == 0)
        let huge = bus.directory.appendingPathComponent("huge.png")
        try Self.pngHeader(width: 20_000, height: 20_000).write(to: huge)
        let client = try bus.client()
        let plain = try client.notify(summary: "chart", body: "the chart", timeout: 0)
        // As a file URI: chimed hands presenters the checked path.
        let pictured = try client.notify(summary: "chart", body: "the <img src=\"file://\(chart)\" alt=\"chart\"/>", timeout: 0)
        let tooBig = try client.notify(summary: "chart", body: "the <img src=\"\(huge.path)\" alt=\"chart\"/>", timeout: 0)
        let shown = try display.waitForWindows { $0.count == 3 }
        let height = Dictionary(uniqueKeysWithValues: shown.map { ($0.title, $0.height) })
        let grown = try #require(height["chime-banner-\(pictured)"]) - (try #require(height["chime-banner-\(plain)"]))
        #expect((120...126).contains(grown), "600x400 drawn 180x120 under the text: \(shown)")
        #expect(shown.allSatisfy { $0.width == 380 }, "\(shown)")
        #expect(try client.list().first { $0["id"] == .uint32(pictured) }?["body"]?.string == "the <img src=\"\(chart)\" alt=\"chart\"/>")
        #expect(height["chime-banner-\(tooBig)"] == height["chime-banner-\(plain)"], "\(shown)")
        #expect(client.waitUntil(timeout: 10) { bus.daemonLog.contains("banner goes without its body image") })
        #expect(bus.logSays("huge.png is 20000x20000 pixels, more than the 4096x4096 a banner loads; notification \(tooBig)'s banner goes without its body image"))
    }

    /// A PNG claiming `width` x `height`: its signature, header and an empty image-data chunk
    /// (where a reader learns the size), and no pixels.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return bigEndian(UInt32(data.count)) + typed + bigEndian(~crc)
        }
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0])
                    + chunk("IDAT", []) + chunk("IEND", []))
    }

    /// A reload that changes the width redraws the banners already shown, and the "+N more" line,
    /// at the new width: the stack never mixes two.
    @Test(arguments: Drawing.allCases) func aNewWidthOnReloadRedrawsTheBannersShown(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[popups]\nmax-visible = 2\n", display: display, drawing: drawing)
        let client = try bus.client()
        for index in 0..<3 { _ = try client.notify(summary: "note \(index)", timeout: 0) }
        #expect(try display.waitForWindows { $0.count == 2 && $0.allSatisfy { $0.width == 380 } }.count == 2)
        #expect(try display.waitForWindows("chime-more") { $0.first?.width == 380 }.count == 1)
        try bus.writeConfig("[popups]\nmax-visible = 2\nwidth = 250\n")
        #expect(try bus.chimectl("reload").status == 0)
        let shown = try display.waitForWindows { $0.count == 2 && $0.allSatisfy { $0.width == 250 } }
        #expect(shown.allSatisfy { $0.x == display.width - 250 - 12 }, "\(shown)")
        #expect(try display.waitForWindows("chime-more") { $0.first?.width == 250 }.first?.width == 250)
    }

    /// A notification that brings no icon but names its desktop file shows that file's icon,
    /// as GNOME Shell and Plasma do; one whose desktop file is not there shows none.
    @Test(arguments: Drawing.allCases) func withoutAnIconTheDesktopFilesIconIsShown(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        let white = bus.directory.appendingPathComponent("white.png").path
        _ = try display.run("/usr/bin/convert", ["-size", "48x48", "xc:white", white])
        let applications = bus.directory.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Test App\nExec=true\nIcon=\(white)\n"
            .write(to: applications.appendingPathComponent("org.chime.TestApp.desktop"), atomically: true, encoding: .utf8)
        try bus.startDaemon()
        let client = try bus.client()
        _ = try client.notify(summary: "no desktop file", hints: [("desktop-entry", .string("org.chime.Missing"))], timeout: 0)
        _ = try client.notify(summary: "a desktop file", hints: [("desktop-entry", .string("org.chime.TestApp"))], timeout: 0)
        let shown = try display.waitForWindows { $0.count == 2 }
        let shot = bus.directory.appendingPathComponent("shot.png").path
        try display.screenshot(to: shot)
        // Where the icon goes: inside the banner's padding, at its top left.
        func iconArea(_ banner: XDisplay.Window) throws -> Double {
            try XDisplay.brightness(x: banner.x + 20, y: banner.y + 20, width: 30, height: 30, in: shot)
        }
        #expect(try iconArea(shown[0]) > 0.9, "the desktop file's white icon: \(shown)")
        #expect(try iconArea(shown[1]) < 0.5, "no icon where there is no desktop file")
    }

    /// A user's style.css restyles the banners: GTK's read it, so where chime-banners would draw
    /// them chime-presenter does (chime-banners says why and leaves).
    @Test(arguments: Drawing.allCases) func theUsersStyleSheetRestylesTheBanners(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        try bus.writeConfig("window.chime-banner { background-color: #ffffff; }\n", file: "style.css")
        try bus.startDaemon()
        _ = try bus.client().notify(summary: "white", timeout: 0)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("shot.png").path
        try display.screenshot(to: shot)
        // The banner's lower right, where no text is: the shipped style is dark, this one white.
        #expect(try XDisplay.brightness(x: banner.x + banner.width - 40, y: banner.y + banner.height - 12,
                                        width: 30, height: 6, in: shot) > 0.9)
        #expect(try bus.chimectl("status").stdout.contains("banners: on, drawn by chime-presenter (GTK)"))
        if drawing == .light { #expect(bus.logSays("style.css styles them: chime-presenter draws them"), "\(bus.daemonLog)") }
    }

    /// A style.css written or changed while banners are up applies on `chimectl reload`: the
    /// banner up takes it at once, whichever program drew it.
    @Test(arguments: Drawing.allCases) func aNewStyleSheetAppliesOnReload(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        _ = try bus.client().notify(summary: "restyled", timeout: 0)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("shot.png").path
        func corner() throws -> Double {
            try display.screenshot(to: shot)
            return try XDisplay.brightness(x: banner.x + banner.width - 40, y: banner.y + banner.height - 12, width: 30, height: 6, in: shot)
        }
        #expect(try corner() < 0.3, "the shipped style is dark")
        let client = try bus.client()
        for (css, light) in [("#ffffff", true), ("#000000", false)] {
            try bus.writeConfig("window.chime-banner { background-color: \(css); }\n", file: "style.css")
            #expect(try bus.chimectl("reload").status == 0)
            #expect(client.waitUntil { ((try? display.windows().count) ?? 0) == 1 && ((try? corner()).map { light ? $0 > 0.9 : $0 < 0.05 } ?? false) },
                    "\(css) after the reload")
        }
    }

    /// With a screen reader running (the accessibility bus says ScreenReaderEnabled, as while
    /// Orca runs), GTK draws the banners, whose windows it can read; chime-banners says why.
    @Test func withAScreenReaderRunningGTKDrawsTheBanners() throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: .light)
        let accessibility = try FakeService(address: bus.address, name: "org.a11y.Bus") { message, connection in
            guard message.member == "Get", message.arguments.last == .string("ScreenReaderEnabled") else { return false }
            connection.send(message.reply([.variant(.bool(true))]))
            return true
        }
        defer { accessibility.stop() }
        try bus.startDaemon()
        let daemon = try #require(bus.daemon)
        _ = try bus.client().notify(summary: "read aloud", timeout: 0)
        _ = try display.waitForWindows { $0.count == 1 }
        #expect(bus.logSays("banners: a screen reader runs: chime-presenter draws them"), "\(bus.daemonLog)")
        #expect(try bus.run("pgrep", ["-P", "\(daemon.pid)", "-f", "chime-presenter --banners-only"]).status == 0)
    }

    @Test(arguments: Drawing.allCases) func pastTheMaximumOneLineCountsTheRest(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[popups]\nmax-visible = 2\n", display: display, drawing: drawing)
        let client = try bus.client()
        for index in 0..<5 { _ = try client.notify(summary: "note \(index)", timeout: 0) }
        let shown = try display.waitForWindows { $0.count == 2 }
        #expect(shown.map(\.title) == ["chime-banner-5", "chime-banner-4"])
        #expect(shown.allSatisfy { $0.x == display.width - 380 - 12 }, "top-right by default")
        let more = try #require(try display.waitForWindows("chime-more") { $0.count == 1 }.first)
        // A click on "+3 more" opens the panel, which shows them all.
        try display.click(x: more.x + more.width / 2, y: more.y + more.height / 2)
        #expect(try display.waitForWindows("chime-center") { $0.count == 1 }.count == 1)
        #expect(try bus.chimectl("status", "--json").stdout.contains("\"center-open\":true"))
    }

    @Test(arguments: Drawing.allCases) func clickingAnActionButtonSendsItsKeyAndARightClickDismisses(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let waiting = try bus.start("notify-send", ["--wait", "-t", "0", "-A", "yes=Yes", "Confirm", "click me"])
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        // The action row is the banner's bottom edge.
        try display.click(x: banner.x + banner.width / 2, y: banner.y + banner.height - 22)
        #expect(waiting.wait(timeout: 10) == 0)
        #expect(waiting.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "yes")

        let client = try bus.client()
        try client.listen()
        let id = try client.notify(summary: "right click me", timeout: 0)
        let second = try #require(try display.waitForWindows { $0.map(\.title) == ["chime-banner-\(id)"] }.first)
        try display.click(x: second.x + 40, y: second.y + 40, button: 3)
        #expect(client.waitUntil { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(id), .uint32(2)] } })
    }

    /// chime-presenter costs memory only while banners are shown: none runs before the first,
    /// it leaves after `[popups] idle-exit` with nothing on screen, and the next banner starts it.
    @Test(arguments: Drawing.allCases) func thePresenterLeavesWhenTheScreenIsEmptyAndComesBackForTheNextBanner(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[popups]\nidle-exit = 1s\n", display: display, drawing: drawing)
        let daemon = try #require(bus.daemon)
        let client = try bus.client()
        let running = { (try? client.control("GetStatus").first?.vardictEntries?["presenter-running"])??.bool }
        #expect(running() == false, "none runs before there is a banner")
        let first = try client.notify(summary: "first", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 1 }.count == 1)
        #expect(running() == true)
        #expect(try bus.chimectl("dismiss", "\(first)").status == 0)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("the banner presenter left: nothing was on screen") } != nil)
        #expect(running() == false)
        #expect(try bus.chimectl("status").stdout.contains("banners: on, drawn by \(drawing == .gtk ? "chime-presenter (GTK)" : "chime-banners") (it starts with the next one)"))
        let second = try client.notify(summary: "second", timeout: 0)
        #expect(try display.waitForWindows { $0.map(\.title) == ["chime-banner-\(second)"] }.count == 1, "drawn by a new presenter")
    }

    /// Each mouse button does what `[popups]` says (as dunst's `mouse_*_click`); a menu reaches
    /// every action, past the four buttons too, and so does the banner's "more" button.
    @Test(arguments: Drawing.allCases) func mouseButtonsDoWhatTheConfigSaysAndEveryActionIsReachable(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[popups]\nright-click = menu\nmiddle-click = dismiss-all\n", display: display, drawing: drawing)
        let actions = (1...6).flatMap { ["-A", "a\($0)=Action \($0)"] }
        let chooseLast = { (menuItems: Int) throws in
            _ = try display.waitForWindows("chime-actions") { $0.count == 1 }
            try display.run("/usr/bin/xdotool", ["key", "--delay", "30"] + Array(repeating: "Down", count: menuItems) + ["Return"])
        }
        let byMenu = try bus.start("notify-send", ["--wait", "-t", "0"] + actions + ["Six choices", "by the menu"])
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        try display.click(x: banner.x + 60, y: banner.y + 30, button: 3)
        try chooseLast(6)
        #expect(byMenu.wait(timeout: 10) == 0 && byMenu.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a6", "\(byMenu.stdout)")

        let byMore = try bus.start("notify-send", ["--wait", "-t", "0"] + actions + ["Six choices", "by more"])
        let second = try #require(try display.waitForWindows { $0.count == 1 }.first)
        // The "more" button ends the action row, the banner's bottom edge.
        try display.click(x: second.x + second.width - 30, y: second.y + second.height - 22)
        try chooseLast(2)
        #expect(byMore.wait(timeout: 10) == 0 && byMore.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a6", "\(byMore.stdout)")

        let client = try bus.client()
        try client.listen()
        let ids = try (0..<2).map { try client.notify(summary: "middle \($0)", timeout: 0) }
        let shown = try display.waitForWindows { $0.count == 2 }
        try display.click(x: shown[0].x + 60, y: shown[0].y + 30, button: 2)
        for id in ids {
            #expect(client.waitUntil { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(id), .uint32(2)] } })
        }
    }

    /// A click hands the app the activation token GDK made for it (an X11 startup id with the
    /// click's X server time), not one chimed made up, before ActionInvoked; the left click too.
    @Test(arguments: Drawing.allCases) func aClickHandsTheAppTheActivationTokenMadeForIt(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        try client.listen()
        let id = try client.notify(app: "Mail", summary: "click me", actions: ["default", "Open", "yes", "Yes"], timeout: 0)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        try display.click(x: banner.x + banner.width / 2, y: banner.y + banner.height - 22)  // the Yes button
        #expect(client.waitUntil { client.signals(named: "ActionInvoked").contains { $0.arguments == [.uint32(id), .string("yes")] } })
        let tokens = client.signals(named: "ActivationToken")
        #expect(tokens.count == 1 && tokens.first?.arguments.first == .uint32(id))
        let token = try #require(tokens.first?.arguments.last?.string)
        #expect(token.contains(drawing.program) && token.contains("_TIME") && !token.hasPrefix("chimed-"), "\(token)")

        let second = try client.notify(app: "Mail", summary: "open me", actions: ["default", "Open"], timeout: 0)
        let other = try #require(try display.waitForWindows { $0.map(\.title) == ["chime-banner-\(second)"] }.first)
        try display.click(x: other.x + 60, y: other.y + 30)
        #expect(client.waitUntil { client.signals(named: "ActivationToken").count == 2 })
        let clicked = try #require(client.signals(named: "ActivationToken").last?.arguments.last?.string)
        #expect(clicked.contains("_TIME") && !clicked.hasPrefix("chimed-") && clicked != token, "\(clicked)")
    }

    @Test(arguments: Drawing.allCases) func thePointerOverABannerPausesItsExpiry(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        try client.listen()
        // Long enough to reach it with the pointer even on a loaded machine.
        let id = try client.notify(summary: "hover me", timeout: 3_000)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        try display.moveMouse(x: banner.x + 60, y: banner.y + 30)
        // Well past its 3 s, it is still open while the pointer stays.
        #expect(!client.waitUntil(timeout: 4) { !client.signals(named: "NotificationClosed").isEmpty })
        try display.moveMouse(x: 10, y: display.height - 10)
        #expect(client.waitUntil(timeout: 10) { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(id), .uint32(1)] } })
    }

    @Test(arguments: Drawing.allCases) func aBurstOfAThousandShowsTheMaximumAndChimedStaysResponsive(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(config: "[general]\nrate-limit-burst = 100000\n", display: display, drawing: drawing)
        let flooder = try bus.client()
        for index in 0..<1_000 {
            flooder.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "burst \(index)", timeout: 0)))
        }
        #expect(flooder.waitUntil(timeout: 60) { flooder.replies.count == 1_000 })
        #expect(try bus.chimectl("status").status == 0)
        let shown = try display.waitForWindows { $0.first?.title == "chime-banner-1000" && $0.count == 5 }
        #expect(shown.count == 5, "five banners by default")
        // The line counting the rest is a window of its own, and may come a moment after them.
        #expect(try display.waitForWindows("chime-more") { $0.count == 1 }.count == 1)
        #expect(try bus.chimectl("dismiss", "--all").status == 0)
        #expect(try display.waitForWindows { $0.isEmpty }.isEmpty)
    }

    /// A package that left chime-presenter out: chimed says so and serves without banners.
    @Test(arguments: Drawing.allCases) func withoutChimePresenterBesideItChimedServesWithoutBanners(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        let alone = bus.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let copy = alone.appendingPathComponent("chimed").path
        try copyExecutable(TestBus.chimed, to: copy)
        let daemon = try bus.startChimed(executable: copy)
        defer { daemon.signal(SIGTERM); _ = daemon.wait(timeout: 5) }
        // The presenter is started for the first banner.
        #expect(try bus.run("notify-send", ["-p", "Still", "here"]).stdout == "1")
        #expect(daemon.line(onStderr: true, timeout: 10) {
            $0.contains("cannot start the banner presenter") && $0.contains("running without banners")
        } != nil)
        #expect(try bus.chimectl("list").stdout.contains("Still"))
        #expect(daemon.isRunning)
        #expect(try bus.chimectl("status").stdout.contains("banners: none: the banner presenter ended"))
    }

    /// Displays named to start later get numbers of their own even before either starts: the
    /// tests that use them run at once, and two on one number saw each other's X server.
    @Test func displaysNamedBeforeTheyStartDoNotShareANumber() throws {
        let first = try XDisplay(startingLater: ()), second = try XDisplay(startingLater: ())
        #expect(first.name != second.name)
    }

    /// A display that cannot be opened when chimed starts (one still coming up) is tried again
    /// after 1, 2 and 4 s, said in the log; once it is up, banners show.
    @Test(arguments: Drawing.allCases) func aDisplayThatComesUpLateStillGetsBanners(_ drawing: Drawing) throws {
        let display = try XDisplay(startingLater: ())
        let bus = try TestBus(display: display, drawing: drawing)
        let daemon = try #require(bus.daemon)
        _ = try bus.client().notify(summary: "late", timeout: 0)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("cannot open the display; trying again in 1 s") } != nil,
                "\(bus.daemonLog)")
        try display.start()
        #expect(try display.waitForWindows { $0.count == 1 }.count == 1)
        #expect(try bus.chimectl("status").stdout.contains("banners: on"))
    }

    @Test(arguments: Drawing.allCases) func whenTheDisplayGoesChimedRunsOnWithoutBanners(_ drawing: Drawing) throws {
        // A number no other test's Xvfb takes once this one has stopped: a display of the same
        // number coming up meanwhile would be this one coming back.
        let display = try XDisplay(startingLater: ())
        try display.start()
        let bus = try TestBus(display: display, drawing: drawing)
        _ = try bus.client().notify(summary: "before", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 1 }.count == 1)
        #expect(try bus.chimectl("status").stdout.contains("banners: on"))
        display.stop()
        let daemon = try #require(bus.daemon)
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("the banner presenter ended") } != nil)
        #expect(try bus.chimectl("status").stdout.contains("banners: none: the display went away; they come back when it does"))
        #expect(daemon.isRunning)
        #expect(try bus.client().notify(summary: "after") > 0)
        #expect(try bus.chimectl("list").stdout.contains("after"))
    }
}

extension PopupTests {
    /// A presenter that crashes is started again and draws what is open; one that keeps
    /// crashing is started again after 1 s, 2 s, 4 s, 8 s... (up to a minute), never given up on,
    /// and `chimectl status` says it is restarting meanwhile.
    @Test(arguments: Drawing.allCases) func aCrashedPresenterIsStartedAgainAfterLongerPauses(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let daemon = try #require(bus.daemon)
        _ = try bus.client().notify(summary: "open", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 1 }.count == 1)
        let client = try bus.client()
        for (time, pause) in [1, 2, 4, 8].enumerated() {
            let before = daemon.stderrLines.count
            let found = try bus.run("pgrep", ["-P", "\(daemon.pid)", "-x", drawing.program])
            let pid = try #require(pid_t(found.stdout), "presenter: \(found)")
            #expect(kill(pid, SIGKILL) == 0)  // as the OOM killer would: SIGSEGV waits for Swift's backtracer
            let said = daemon.line(onStderr: true, from: before, timeout: 10) { $0.contains("the banner presenter") }
            #expect(said?.contains("the banner presenter crashed (signal 9); starting it again in \(pause) s") == true,
                    "crash \(time + 1): \(bus.daemonLog)")
            #expect(try bus.chimectl("status").stdout.contains("banners: restarting"))
            #expect(client.waitUntil(timeout: Double(pause) + 10) {
                (try? bus.run("pgrep", ["-P", "\(daemon.pid)", "-x", drawing.program]).status) == 0
            })
            #expect(try display.waitForWindows { $0.count == 1 }.count == 1, "the open banner is drawn again")
            #expect(try bus.chimectl("status").stdout.contains("banners: on"))
        }
    }

    /// A display that goes and comes back (an X server or compositor started again while chimed,
    /// started by D-Bus or systemd, runs on) gets its banners back when its socket is made again.
    @Test(arguments: Drawing.allCases) func whenTheDisplayComesBackSoDoTheBanners(_ drawing: Drawing) throws {
        let display = try XDisplay(startingLater: ())
        try display.start()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        _ = try client.notify(summary: "before", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 1 }.count == 1)
        display.stop()
        let daemon = try #require(bus.daemon)
        let socket = "/tmp/.X11-unix/X" + display.name.dropFirst()
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("the banner presenter ended") && $0.contains("until \(socket) is made again") } != nil,
                "\(bus.daemonLog)")
        #expect(try bus.chimectl("status").stdout.contains("banners: none: the display went away; they come back when it does"))
        try display.start()
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("\(socket) is back; starting the banner presenter again") } != nil)
        _ = try client.notify(summary: "after", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 2 }.count == 2, "the open banner and the new one")
        #expect(try bus.chimectl("status").stdout.contains("banners: on"))
    }
}

/// The same banners on a wlroots compositor (headless sway), placed by gtk-layer-shell.
@Suite struct WaylandPopupTests {
    /// On a compositor without wlr-layer-shell (weston here, GNOME's Mutter too) chime-banners
    /// cannot place banners: it says so, and chimed has chime-presenter draw them instead.
    @Test func withoutLayerShellChimePresenterDrawsTheBanners() throws {
        let bus = try TestBus(daemon: false, drawing: .light)
        let runtime = bus.directory.appendingPathComponent("weston")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        var westonEnvironment = ProcessInfo.processInfo.environment
        westonEnvironment["XDG_RUNTIME_DIR"] = runtime.path
        westonEnvironment.removeValue(forKey: "DISPLAY")
        let weston = try Subprocess("/usr/bin/weston", ["--backend=headless-backend.so", "--socket=wayland-w", "--idle-time=0"],
                                    environment: westonEnvironment)
        defer { weston.signal(SIGTERM); _ = weston.wait(timeout: 5) }
        let socket = runtime.appendingPathComponent("wayland-w").path
        let deadline = Date().addingTimeInterval(10)
        while access(socket, F_OK) != 0, Date() < deadline { weston.pump(timeout: 0.05) }
        bus.extraEnvironment = ["WAYLAND_DISPLAY": "wayland-w", "XDG_RUNTIME_DIR": runtime.path]
        try bus.startDaemon()
        let daemon = try #require(bus.daemon)
        _ = try bus.client().notify(summary: "on weston", timeout: 0)
        #expect(bus.logSays("banners: this compositor has no wlr-layer-shell to place them: chime-presenter draws them"))
        let client = try bus.client()
        #expect(client.waitUntil { (try? bus.run("pgrep", ["-P", "\(daemon.pid)", "-x", "chime-presenter"]).status) == 0 },
                "chime-presenter runs: \(bus.daemonLog)")
        #expect(try bus.chimectl("status").stdout.contains("banners: on, drawn by chime-presenter (GTK)"))
    }

    @Test(arguments: Drawing.allCases) func bannersAppearInTheCornerOnWaylandAndGoWhenDismissed(_ drawing: Drawing) throws {
        let bus = try TestBus(wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        let id = try bus.client().notify(app: "Mail", summary: "on wayland", timeout: 0)
        // The banner's top-right corner region: lighter or darker than sway's background once drawn.
        let region = (x: WaylandSession.topRightX(wayland.width), y: WaylandSession.topRightY,
                      width: WaylandSession.topRightSize.width, height: WaylandSession.topRightSize.height)
        let shot = bus.directory.appendingPathComponent("shot.png").path
        let (empty, drawn) = try wayland.waitUntilTopRightDrawn(shot: shot)
        #expect(abs(drawn - empty) >= 0.02, "a banner is drawn top-right: \(empty) -> \(drawn)")
        let left = try XDisplay.brightness(x: 40, y: region.y, width: region.width, height: region.height, in: shot)
        #expect(abs(left - empty) < 0.02, "nothing on the left")

        #expect(try bus.chimectl("dismiss", "\(id)").status == 0)
        var after = drawn
        let gone = Date().addingTimeInterval(10)
        repeat {
            try wayland.screenshot(to: shot)
            after = try XDisplay.brightness(x: region.x, y: region.y, width: region.width, height: region.height, in: shot)
        } while abs(after - empty) >= 0.02 && Date() < gone
        #expect(abs(after - empty) < 0.02, "gone once dismissed")
    }
}

extension WaylandPopupTests {
    /// A compositor that quits and starts again (a restarted sway) gets its banners back.
    @Test(arguments: Drawing.allCases) func whenSwayStartsAgainSoDoTheBanners(_ drawing: Drawing) throws {
        let bus = try TestBus(wayland: true, drawing: drawing)
        let daemon = try #require(bus.daemon)
        let shot = bus.directory.appendingPathComponent("shot.png").path
        do {  // the first sway is held only here, so restarting ends it
            let first = try #require(bus.wayland)
            let before = try bus.client().notify(summary: "before sway restarted", timeout: 0)
            _ = try first.waitUntilTopRightDrawn(shot: shot)
            #expect(try bus.chimectl("dismiss", "\(before)").status == 0)
        }
        try bus.restartWayland()
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("the banner presenter ended") } != nil, "\(bus.daemonLog)")
        let wayland = try #require(bus.wayland)
        let socket = wayland.runtimeDirectory.appendingPathComponent(wayland.socket).path
        #expect(daemon.line(onStderr: true, timeout: 10) { $0.contains("\(socket) is back; starting the banner presenter again") } != nil,
                "\(bus.daemonLog)")
        _ = try bus.client().notify(summary: "after sway restarted", timeout: 0)
        let (empty, drawn) = try wayland.waitUntilTopRightDrawn(shot: shot)
        #expect(abs(drawn - empty) >= 0.02, "a banner is drawn on the new sway: \(empty) -> \(drawn)")
    }

    /// `[popups] output` names the monitor the banners go to: with a second output (sway's
    /// headless outputs are named HEADLESS-N; a new one is 1920x1080), they are drawn there, in
    /// its top-right corner, and not on the first.
    @Test(arguments: Drawing.allCases) func bannersGoToTheOutputTheConfigNames(_ drawing: Drawing) throws {
        let bus = try TestBus(config: "[popups]\noutput = HEADLESS-2\n", wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        try wayland.swaymsg(["create_output"])
        _ = try bus.client().notify(summary: "on the second output", timeout: 0)
        let shot = bus.directory.appendingPathComponent("second.png").path
        let (empty, drawn) = try wayland.waitUntilTopRightDrawn(shot: shot, output: "HEADLESS-2", outputWidth: WaylandSession.addedOutputWidth)
        #expect(abs(drawn - empty) >= 0.02, "drawn top-right on HEADLESS-2: \(empty) -> \(drawn)")
        #expect(try wayland.topRightIsEmpty(on: "HEADLESS-1", shot: shot), "nothing on HEADLESS-1")
    }
}

extension WaylandPopupTests {
    /// On Wayland banners take GNOME's interface settings, as GTK programs there do (`gsettings
    /// set org.gnome.desktop.interface text-scaling-factor 2`; GSettings' keyfile backend here):
    /// larger text makes a taller banner, with either program.
    @Test(arguments: Drawing.allCases) func onWaylandBannersTakeGNOMEsTextSize(_ drawing: Drawing) throws {
        func bottom(scaled: Bool) throws -> Int {
            let bus = try TestBus(daemon: false, wayland: true, drawing: drawing)
            bus.extraEnvironment = ["GSETTINGS_BACKEND": "keyfile"]
            if scaled {
                let folder = bus.directory.appendingPathComponent("config/glib-2.0/settings")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try "[org/gnome/desktop/interface]\ntext-scaling-factor=2.0\n"
                    .write(to: folder.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
            }
            try bus.startDaemon()
            let wayland = try #require(bus.wayland)
            _ = try bus.client().notify(app: "Mail", summary: "The text size", body: "of the desktop", timeout: 0)
            let shot = bus.directory.appendingPathComponent("text-size.png").path
            _ = try wayland.waitUntilTopRightDrawn(shot: shot)
            // Down a column through the banner, right of its text: where it ends.
            let column = try XDisplay.column(x: wayland.width - 12 - 30, in: shot)
            let background = column.last ?? 0
            return column.lastIndex { abs($0 - background) > 0.02 } ?? 0
        }
        let normal = try bottom(scaled: false), large = try bottom(scaled: true)
        #expect(large > normal + 20, "at 96 dpi the banner ends at \(normal); at text-scaling-factor 2, \(large)")
    }

    /// On an output at scale 2 (most HiDPI screens) a banner is drawn with two pixels to each of
    /// its units, as sharp as the screen is: not drawn at scale 1 and stretched, where each pair
    /// of pixels would be one pixel twice (sway's pixman renderer stretches by repeating them).
    @Test(arguments: Drawing.allCases) func onAScaledOutputBannersAreDrawnAtItsScale(_ drawing: Drawing) throws {
        let bus = try TestBus(wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        try wayland.swaymsg(["output", "HEADLESS-1", "scale", "2"])
        _ = try bus.client().notify(summary: "Sharp summary text", body: "A body line that is drawn at the scale", timeout: 0)
        // The screenshot has the output's 1280x800 pixels; the banner's text spans 560-1200, 90-160.
        let shot = bus.directory.appendingPathComponent("scaled.png").path
        let (empty, drawn) = try wayland.waitUntilDrawn(x: 1000, y: 120, width: 100, height: 30, shot: shot)
        #expect(abs(drawn - empty) >= 0.02, "a banner is drawn: \(empty) -> \(drawn)")
        let text = try XDisplay.grey(x: 560, y: 90, width: 640, height: 70, in: shot)
        var withinPairs = 0, acrossPairs = 0
        for row in text {
            for x in stride(from: 0, to: row.count - 2, by: 2) {
                if abs(row[x] - row[x + 1]) > 0.2 { withinPairs += 1 }
                if abs(row[x + 1] - row[x + 2]) > 0.2 { acrossPairs += 1 }
            }
        }
        #expect(acrossPairs > 500, "text is there: \(acrossPairs) edges")
        #expect(withinPairs > acrossPairs / 2, "edges inside pixel pairs as often as between them: \(withinPairs) to \(acrossPairs)")
    }

    /// With no `output` set, each banner goes to the output the user is working on (sway's
    /// focused one): the 1920x1080 HEADLESS-2 here, then HEADLESS-1 once the focus is there.
    @Test(arguments: Drawing.allCases) func withNoOutputSetBannersGoWhereTheFocusIs(_ drawing: Drawing) throws {
        let bus = try TestBus(wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        try wayland.swaymsg(["create_output"])
        try wayland.swaymsg(["focus", "output", "HEADLESS-2"])
        let client = try bus.client()
        _ = try client.notify(summary: "where you are", timeout: 0)
        let shot = bus.directory.appendingPathComponent("second-output.png").path
        let there = try wayland.waitUntilTopRightDrawn(shot: shot, output: "HEADLESS-2", outputWidth: WaylandSession.addedOutputWidth)
        #expect(abs(there.drawn - there.empty) >= 0.02, "drawn top-right on the focused HEADLESS-2: \(there)")
        #expect(try wayland.topRightIsEmpty(on: "HEADLESS-1", shot: shot), "nothing on HEADLESS-1")

        try wayland.swaymsg(["focus", "output", "HEADLESS-1"])
        _ = try client.notify(summary: "now here", timeout: 0)
        let here = try wayland.waitUntilTopRightDrawn(shot: shot, output: "HEADLESS-1")
        #expect(abs(here.drawn - here.empty) >= 0.02, "drawn on HEADLESS-1 once the focus is there: \(here)")
    }

    /// On Wayland a banner is anchored to the edges of its corner, bottom-left here, or to the top
    /// edge alone for `top`, where the compositor centres it: placed right on any output without
    /// knowing its size.
    /// (x, y: where the banner's plain background is, right of its text and left of its close button.)
    @Test(arguments: [("bottom-left", 12 + 240, 800 - 12 - 40), ("top", (1280 - 380) / 2 + 240, 12 + 20)], Drawing.allCases)
    func bannersAreAnchoredToTheirCornerOnWayland(corner: (anchor: String, x: Int, y: Int), drawing: Drawing) throws {
        let (anchor, x, y) = corner
        let bus = try TestBus(config: "[popups]\nanchor = \(anchor)\n", wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        _ = try bus.client().notify(summary: "anchored \(anchor)", timeout: 0)
        let shot = bus.directory.appendingPathComponent("anchored.png").path
        // The top-right corner is where no banner goes here.
        let (empty, drawn) = try wayland.waitUntilDrawn(x: x, y: y, width: 100, height: 20, shot: shot,
                                                        emptyAt: (x: wayland.width - 120, y: 12 + 20))
        #expect(abs(drawn - empty) >= 0.02, "drawn \(anchor) at \(x), \(y): \(empty) -> \(drawn)")
        // Not a pixel off its place: the strip just past its outer edge is background.
        let outside = anchor == "top" ? (x: x, y: 2) : (x: 2, y: y)
        let size = anchor == "top" ? (width: 100, height: 6) : (width: 6, height: 20)
        let edge = try XDisplay.brightness(x: outside.x, y: outside.y, width: size.width, height: size.height, in: shot)
        let background = try XDisplay.brightness(x: wayland.width - 120, y: 2, width: size.width, height: size.height, in: shot)
        #expect(abs(edge - background) < 0.02, "the margin outside the banner is empty: \(background) -> \(edge)")
    }
}

/// Clicks and keys on Wayland, by a virtual pointer and keyboard on the headless sway.
@Suite struct WaylandInputTests {
    /// A banner with a reply field does not take the keyboard when it appears: what the user
    /// types goes on to where it went (here nowhere, so no reply is sent). Clicked, the field
    /// takes the keyboard, and Return sends the reply.
    @Test(arguments: Drawing.allCases) func onWaylandTheReplyFieldTakesTheKeyboardOnlyWhenClicked(_ drawing: Drawing) throws {
        let bus = try TestBus(wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        let client = try bus.client()
        try client.listen()
        let id = try client.notify(summary: "reply to me", actions: ["inline-reply", "Reply"], timeout: 0)
        let left = wayland.width - 380 - 12
        let shot = bus.directory.appendingPathComponent("shot.png").path
        let (empty, drawn) = try wayland.waitUntilDrawn(x: left + 20, y: 32, width: 200, height: 20, shot: shot)
        #expect(abs(drawn - empty) >= 0.02, "drawn: \(empty) -> \(drawn)")
        try wayland.type("not for you")
        // Taken, the keys would be a reply, or Return would press the banner's close button.
        #expect(!client.waitUntil(timeout: 2) {
            !client.signals(named: "NotificationReplied").isEmpty || !client.signals(named: "NotificationClosed").isEmpty
        }, "a banner that appears does not take the keyboard: \(client.signals.map(\.member))")
        // The banner's bottom, drawn whole by now: the last row of its column that is not the
        // background's.
        try wayland.screenshot(to: shot)
        let column = try XDisplay.column(x: left + 40, in: shot)
        let background = try #require(column.last)
        let bottom = try #require(column.indices.last { abs(column[$0] - background) > 0.02 })
        let windows = try wayland.keyboardFocus()
        try wayland.click(x: left + 190, y: bottom - 26)  // the reply field, its last row
        #expect(try client.list().contains { $0["id"] == .uint32(id) }, "the click was on the field, not the banner (bottom \(bottom))")
        // The banner takes the keyboard once it has handled the click; keys before that are lost.
        #expect(client.waitUntil { (try? wayland.keyboardFocus()) != windows }, "the banner has the keyboard")
        try wayland.type("on my way")
        #expect(client.waitUntil { client.signals(named: "NotificationReplied").contains { $0.arguments == [.uint32(id), .string("on my way")] } },
                "\(client.signals(named: "NotificationReplied"))")
    }

    /// The pointer over a banner holds its expiry on Wayland too; when it goes, the banner gets
    /// the time it had left (at least a second) and expires.
    @Test(arguments: Drawing.allCases) func onWaylandThePointerOverABannerHoldsItsExpiry(_ drawing: Drawing) throws {
        let bus = try TestBus(wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        let client = try bus.client()
        try client.listen()
        // Long enough to be drawn and reached even on a loaded machine.
        let id = try client.notify(summary: "hover me", timeout: 4_000)
        let left = wayland.width - 380 - 12
        let shot = bus.directory.appendingPathComponent("shot.png").path
        let (empty, drawn) = try wayland.waitUntilDrawn(x: left + 20, y: 32, width: 200, height: 20, shot: shot)
        #expect(abs(drawn - empty) >= 0.02, "drawn: \(empty) -> \(drawn)")
        try wayland.movePointer(x: left + 60, y: 40)
        // Well past its 4 s, it is still open while the pointer stays.
        #expect(!client.waitUntil(timeout: 5) { !client.signals(named: "NotificationClosed").isEmpty })
        try wayland.movePointer(x: 20, y: wayland.height - 20)
        #expect(client.waitUntil(timeout: 10) { client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(id), .uint32(1)] } })
    }

    /// A click on a banner is its default action, and the app gets the xdg-activation token the
    /// compositor issued for that click (wlroots' are 32 hex digits), not a made-up startup id;
    /// the close button dismisses.
    /// On Wayland too a right click set to `menu` offers every action, past the four buttons,
    /// chosen with the pointer.
    @Test(arguments: Drawing.allCases) func onWaylandAMenuOffersEveryAction(_ drawing: Drawing) throws {
        let bus = try TestBus(config: "[popups]\nright-click = menu\n", wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        let actions = (1...6).flatMap { ["-A", "a\($0)=Action \($0)"] }
        let waiting = try bus.start("notify-send", ["--wait", "-t", "0"] + actions + ["Six choices", "by the menu"])
        let left = wayland.width - 380 - 12
        let shot = bus.directory.appendingPathComponent("shot.png").path
        _ = try wayland.waitUntilTopRightDrawn(shot: shot)
        try wayland.click(x: left + 60, y: 12 + 30, button: 273)
        // The menu opens under the pointer: lighter than the banner it covers, whose right part stays.
        let (banner, menu) = try wayland.waitUntilDrawn(x: left + 70, y: 12 + 40, width: 60, height: 20, shot: shot,
                                                        emptyAt: (x: left + 300, y: 12 + 40))
        #expect(abs(menu - banner) >= 0.02, "the menu is drawn: \(banner) -> \(menu)")
        // Its items are 26 pixels apart from 17 under the pointer; the sixth is clicked.
        try wayland.click(x: left + 60 + 60, y: 12 + 30 + 17 + 5 * 26 + 4)
        #expect(waiting.wait(timeout: 10) == 0 && waiting.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a6", "\(waiting.stdout)")
    }

    /// ... and with the keyboard: the banner holds it while its menu is open and gives it back
    /// when the menu closes, by Escape or a choice.
    @Test(arguments: Drawing.allCases) func onWaylandAMenuTakesTheKeyboardWhileOpen(_ drawing: Drawing) throws {
        let bus = try TestBus(config: "[popups]\nright-click = menu\n", wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        let client = try bus.client()
        let actions = (1...6).flatMap { ["-A", "a\($0)=Action \($0)"] }
        let waiting = try bus.start("notify-send", ["--wait", "-t", "0"] + actions + ["Six choices", "by keys"])
        let left = wayland.width - 380 - 12
        let shot = bus.directory.appendingPathComponent("shot.png").path
        _ = try wayland.waitUntilTopRightDrawn(shot: shot)
        let before = try wayland.keyboardFocus()
        func openMenu() throws {
            try wayland.click(x: left + 60, y: 12 + 30, button: 273)
            let (banner, menu) = try wayland.waitUntilDrawn(x: left + 70, y: 12 + 40, width: 60, height: 20, shot: shot,
                                                            emptyAt: (x: left + 300, y: 12 + 40))
            #expect(abs(menu - banner) >= 0.02, "the menu is drawn: \(banner) -> \(menu)")
            #expect(client.waitUntil { (try? wayland.keyboardFocus()) == 0 }, "the banner has the keyboard")
        }
        try openMenu()
        try wayland.press(key: 1)  // Escape
        #expect(client.waitUntil { (try? wayland.keyboardFocus()) == before }, "given back after Escape")
        try openMenu()
        for _ in 0..<6 { try wayland.press(key: 108) }  // Down
        try wayland.press(key: 28)  // Return
        #expect(waiting.wait(timeout: 10) == 0 && waiting.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a6", "\(waiting.stdout)")
        #expect(client.waitUntil { (try? wayland.keyboardFocus()) == before }, "given back after the choice")
    }

    @Test(arguments: Drawing.allCases) func aClickOnWaylandInvokesWithTheCompositorsActivationToken(_ drawing: Drawing) throws {
        let bus = try TestBus(wayland: true, drawing: drawing)
        let wayland = try #require(bus.wayland)
        let client = try bus.client()
        try client.listen()
        let id = try client.notify(app: "Mail", summary: "click me", actions: ["default", "Open"], timeout: 0)
        let left = wayland.width - 380 - 12
        let (empty, drawn) = try wayland.waitUntilDrawn(x: left + 20, y: 32, width: 200, height: 20,
                                                        shot: bus.directory.appendingPathComponent("shot.png").path)
        #expect(abs(drawn - empty) >= 0.02, "drawn: \(empty) -> \(drawn)")
        try wayland.click(x: left + 60, y: 12 + 30)
        #expect(client.waitUntil { !client.signals(named: "ActionInvoked").isEmpty })
        #expect(client.signals(named: "ActionInvoked").first?.arguments == [.uint32(id), .string("default")])
        let token = try #require(client.signals(named: "ActivationToken").first?.arguments.last?.string)
        #expect(token.utf8.count == 32 && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) },
                "the compositor's token: \(token)")

        // The second banner takes the first one's place once that one is gone from the screen,
        // which no signal says: a click on its close button until it closes.
        let second = try client.notify(app: "Mail", summary: "close me", timeout: 0)
        #expect(client.waitUntil(timeout: 20) {
            try? wayland.click(x: left + 380 - 22, y: 12 + 20)  // the close button, top right
            return client.waitUntil(timeout: 0.5) {
                client.signals(named: "NotificationClosed").contains { $0.arguments == [.uint32(second), .uint32(2)] }
            }
        })
    }
}

@Suite struct PopupInputTests {
    @Test(arguments: Drawing.allCases) func aLeftClickIsTheDefaultActionAndTheReplyFieldSendsAReply(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        try client.listen()
        let opened = try client.notify(summary: "open me", actions: ["default", "Open"], timeout: 0)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        try display.click(x: banner.x + 60, y: banner.y + 30)
        #expect(client.waitUntil { client.signals(named: "ActionInvoked").contains { $0.arguments == [.uint32(opened), .string("default")] } })

        let asked = try client.notify(summary: "reply to me", actions: ["inline-reply", "Reply"], timeout: 0)
        let field = try #require(try display.waitForWindows { $0.first?.title == "chime-banner-\(asked)" }.first)
        // The reply field is the banner's last row.
        try display.click(x: field.x + field.width / 2, y: field.y + field.height - 24)
        // chime-banners opens chime-presenter's field over its own: typing waits for it.
        if drawing == .light { _ = try display.waitForWindows("chime-reply") { $0.count == 1 } }
        try display.run("/usr/bin/xdotool", ["type", "--delay", "20", "on my way"])
        try display.run("/usr/bin/xdotool", ["key", "Return"])
        #expect(client.waitUntil { client.signals(named: "NotificationReplied").contains { $0.arguments == [.uint32(asked), .string("on my way")] } })
    }
}

extension PopupTests {
    /// On X11 a click elsewhere closes the reply field chime-banners opened over its banner, as
    /// Escape does: the keyboard goes back, and the banner stays.
    @Test func aClickElsewhereClosesTheReplyField() throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: .light)
        let asked = try bus.client().notify(summary: "reply to me", actions: ["inline-reply", "Reply"], timeout: 0)
        let field = try #require(try display.waitForWindows { $0.first?.title == "chime-banner-\(asked)" }.first)
        try display.click(x: field.x + field.width / 2, y: field.y + field.height - 24)
        _ = try display.waitForWindows("chime-reply") { $0.count == 1 }
        try display.click(x: 100, y: 700)
        #expect(try display.waitForWindows("chime-reply") { $0.isEmpty }.isEmpty, "the field closed")
        #expect(try display.windows().map(\.title) == ["chime-banner-\(asked)"], "the banner stays")
    }

    /// The reply field has a send button, named as the app asks (`x-kde-reply-submit-button-text`).
    @Test(arguments: Drawing.allCases) func theReplyFieldsSendButtonSendsTheReply(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        try client.listen()
        let asked = try client.notify(summary: "reply to me", actions: ["inline-reply", "Reply"],
                                      hints: [("x-kde-reply-submit-button-text", .string("Answer"))], timeout: 0)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        try display.click(x: banner.x + banner.width / 3, y: banner.y + banner.height - 24)
        if drawing == .light { _ = try display.waitForWindows("chime-reply") { $0.count == 1 } }
        try display.run("/usr/bin/xdotool", ["type", "--delay", "20", "soon"])
        // The button ends the field's row.
        try display.click(x: banner.x + banner.width - 40, y: banner.y + banner.height - 24)
        #expect(client.waitUntil { client.signals(named: "NotificationReplied").contains { $0.arguments == [.uint32(asked), .string("soon")] } })
    }

    /// The summary is the most prominent text, above a smaller body; time-sensitive and critical
    /// banners say their level in words at the top right, not by colour alone.
    @Test(arguments: Drawing.allCases) func theSummaryStandsOutAndTheLevelIsSaidInWords(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        let plain = try client.notify(app: "x", summary: "HHHH", body: "HHHH", timeout: 60_000)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("shot.png").path
        try display.screenshot(to: shot)
        // The rows with text in the banner's left part: one run a line (app name, summary, body).
        let rows = try Self.textRows(in: shot, x: banner.x + 12, y: banner.y, width: 60, height: banner.height)
        let runs = Self.runs(rows).filter { $0 > 1 }  // not the border's row
        #expect(runs.count == 3 && runs[1] > runs[2], "app name, summary and body heights: \(runs)")
        // The top-right corner (left of the close button) has text only when the level is said.
        let corner = { (window: XDisplay.Window) throws -> Bool in
            try display.screenshot(to: shot)
            return try Self.textRows(in: shot, x: window.x + window.width - 140, y: window.y + 6, width: 100, height: 24).contains(true)
        }
        #expect(try !corner(banner))
        _ = try client.call("CloseNotification", [.uint32(plain)])
        let urgentID = try client.notify(app: "x", summary: "HHHH", body: "HHHH", hints: [("urgency", .byte(2))], timeout: 60_000)
        let title = "chime-banner-\(urgentID)"
        let urgent = try #require(try display.waitForWindows { $0.contains { $0.title == title } }.first { $0.title == title })
        #expect(try corner(urgent), "Time-Sensitive")
    }

    /// Chime's first word on an app's time-sensitive notifications is on the alert itself (its
    /// "more" menu), never a banner of its own that takes a slot of the stack.
    @Test(arguments: Drawing.allCases) func anExplanationIsOnTheAlertNotABannerOfItsOwn(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        let alert = try client.notify(app: "Pager", summary: "db down", hints: [("urgency", .byte(2))], timeout: 0)
        #expect(try display.waitForWindows { $0.count == 1 }.map(\.title) == ["chime-banner-\(alert)"])
        let later = try client.notify(app: "Mail", summary: "new mail", timeout: 0)
        #expect(try display.waitForWindows { $0.count == 2 }.map(\.title) == ["chime-banner-\(later)", "chime-banner-\(alert)"])
        let offers = try client.control("Show", [.uint32(alert)]).first?.vardictEntries?["offers"]?.records ?? []
        #expect(offers.first?["actions"]?.strings == ["chime:time-sensitive-off", "Turn Off Time-Sensitive"], "\(offers)")
    }

    /// A banner that stays (a timeout of never, or critical) says how long ago it came, as the
    /// center does; one that goes by itself does not.
    @Test(arguments: Drawing.allCases) func aBannerThatStaysSaysItsAge(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        let client = try bus.client()
        let ageShown = { (id: UInt32) throws -> Bool in
            let title = "chime-banner-\(id)"
            let banner = try #require(try display.waitForWindows { $0.contains { $0.title == title } }.first { $0.title == title })
            let shot = bus.directory.appendingPathComponent("age.png").path
            try display.screenshot(to: shot)
            // Left of the close button, in the app name's row: "now".
            return try Self.textRows(in: shot, x: banner.x + banner.width - 120, y: banner.y + 8, width: 84, height: 20).contains(true)
        }
        let goes = try client.notify(app: "x", summary: "goes", timeout: 60_000)
        #expect(try !ageShown(goes))
        _ = try client.call("CloseNotification", [.uint32(goes)])
        _ = try display.waitForWindows { $0.isEmpty }
        let stays = try client.notify(app: "x", summary: "stays", timeout: 0)
        #expect(try ageShown(stays))
    }

    /// For each row of a region of a screenshot, whether any pixel in it is bright (text on the
    /// dark banner).
    static func textRows(in shot: String, x: Int, y: Int, width: Int, height: Int) throws -> [Bool] {
        try XDisplay.grey(x: x, y: y, width: width, height: height, in: shot).map { row in row.contains { $0 > 0.59 } }
    }

    static func runs(_ rows: [Bool]) -> [Int] {
        var runs: [Int] = []
        var length = 0
        for bright in rows + [false] {
            if bright { length += 1 } else if length > 0 { runs.append(length); length = 0 }
        }
        return runs
    }

    /// A body that is all one link: a click on the body is still the default action, the link
    /// opens only from its own button under the text, and opening it counts as reading the
    /// notification. A link chimed does not keep (file:) has no button.
    @Test(arguments: Drawing.allCases) func aLinkIsATargetOfItsOwnAndNeverCoversTheBody(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display, drawing: drawing)
        // The desktop's handler: a program that writes down what it was asked to open.
        let opened = try bus.installHandler(for: "x-scheme-handler/https", field: "%u")
        try bus.startDaemon()
        let client = try bus.client()
        try client.listen()
        let body = "<a href=\"https://example.org/a-very-long-path\">Read the whole story on example.org and more</a> <a href=\"file:///etc/passwd\">secrets</a>"
        let id = try client.notify(app: "News", summary: "Headline", body: body, actions: ["default", "Open"], timeout: 0)
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        try display.screenshot(to: bus.directory.appendingPathComponent("link.png").path)
        // The link's button is the banner's last row; the body is the row above it.
        try display.click(x: banner.x + 60, y: banner.y + banner.height - 50)
        #expect(client.waitUntil { client.signals(named: "ActionInvoked").contains { $0.arguments == [.uint32(id), .string("default")] } },
                "a click on the body is the default action")

        let second = try client.notify(app: "News", summary: "Second", body: body, timeout: 0)
        let shown = try #require(try display.waitForWindows { $0.map(\.title) == ["chime-banner-\(second)"] }.first)
        try display.click(x: shown.x + 40, y: shown.y + shown.height - 22)
        #expect(client.waitUntil { (try? String(contentsOfFile: opened, encoding: .utf8)) == "https://example.org/a-very-long-path\n" },
                "the desktop's handler opened it")
        #expect(client.waitUntil {
            (try? client.pages("History", [("limit", .uint32(5))]).first { $0["id"] == .uint32(second) }?["unread"]) == .bool(false)
        }, "opening the link reads the notification")
        #expect(client.signals(named: "ActionInvoked").allSatisfy { $0.arguments.first != .uint32(second) })
        #expect(try bus.client().list().first { $0["id"] == .uint32(second) }?["body"]?.string?.contains("file:") == false)
    }
}
