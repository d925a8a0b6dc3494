import Testing
@testable import ChimeCore

/// Where banners go, without a display.
@Suite struct PresentationTests {
    @Test func bannersStackFromTheAnchoredCornerNewestFirst() {
        var settings = PopupSettings()
        settings.width = 300
        settings.margin = 10
        settings.gap = 5
        settings.maximumVisible = 2
        let banners: [(id: UInt32, height: Int)] = [(3, 50), (2, 80), (1, 60)]
        let top = BannerStack(banners: banners, monitor: (1000, 700), settings: settings)
        #expect(top.placements == [.init(id: 3, x: 690, y: 10), .init(id: 2, x: 690, y: 65)])
        #expect(top.hidden == 1)
        #expect(top.moreAt?.y == 150)

        settings.anchor = .bottomLeft
        let bottom = BannerStack(banners: banners, monitor: (1000, 700), settings: settings)
        #expect(bottom.placements == [.init(id: 3, x: 10, y: 640), .init(id: 2, x: 10, y: 555)])
        #expect(bottom.moreAt?.y == 700 - 150 - BannerStack.moreHeight)

        settings.anchor = .top
        settings.maximumVisible = 5
        let centred = BannerStack(banners: banners, monitor: (1000, 700), settings: settings)
        #expect(centred.placements.map(\.x) == [350, 350, 350] && centred.hidden == 0 && centred.moreAt == nil)
    }
}

@Suite struct RelativeAgeTests {
    @Test func minutesHoursAndDaysAgo() {
        let now: Int64 = 1_000_000_000
        #expect(RelativeAge.text(since: now - 59_000, now: now) == "now")
        #expect(RelativeAge.text(since: now - 5 * 60_000, now: now) == "5 min ago")
        #expect(RelativeAge.text(since: now - 3 * 3_600_000, now: now) == "3 h ago")
        #expect(RelativeAge.text(since: now - 2 * 86_400_000, now: now) == "2 d ago")
        #expect(RelativeAge.text(since: now + 5_000, now: now) == "now", "a clock set back says now")
    }
}

@Suite struct DisplaySocketTests {
    @Test func theSocketOfTheDisplayGTKOpens() {
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(DisplaySocket.path(environment: runtime.merging(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) { a, _ in a })
                == "/run/user/1000/wayland-1", "Wayland first")
        #expect(DisplaySocket.path(environment: ["WAYLAND_DISPLAY": "/tmp/sway.sock"]) == "/tmp/sway.sock")
        #expect(DisplaySocket.path(environment: ["WAYLAND_DISPLAY": "wayland-1"]) == nil, "no runtime folder to find it in")
        #expect(DisplaySocket.path(environment: ["DISPLAY": ":0"]) == "/tmp/.X11-unix/X0")
        #expect(DisplaySocket.path(environment: ["DISPLAY": ":12.1"]) == "/tmp/.X11-unix/X12")
        #expect(DisplaySocket.path(environment: ["DISPLAY": "unix:3"]) == "/tmp/.X11-unix/X3")
        #expect(DisplaySocket.path(environment: ["DISPLAY": "localhost:10.0"]) == nil, "a forwarded display has no socket here")
        #expect(DisplaySocket.path(environment: [:]) == nil)
    }
}
