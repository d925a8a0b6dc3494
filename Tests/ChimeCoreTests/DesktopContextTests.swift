import Testing
@testable import ChimeCore

/// The foreground and fullscreen rules (chimed(1), "What you are doing"), with the desktop's
/// state as a value.
@Suite struct DesktopContextTests {
    var attention: Attention
    let now = at(.monday, "10:00")

    init() {
        var settings = ChimeSettings()
        settings.apps["alarm"] = ["critical-alerts": "true"]
        settings.apps["timer"] = ["hold-in-fullscreen": "false"]
        settings.apps["editor"] = ["quiet-when-focused": "false"]
        attention = Attention(settings: settings)
    }

    static func window(_ ids: String..., identity: SenderIdentity? = nil, fullscreen: Bool = false) -> DesktopContext {
        DesktopContext(source: .wlrForeignToplevel, focused: .init(appIDs: ids, identity: identity, fullscreen: fullscreen))
    }

    func state(_ id: UInt32) -> NotificationState? { attention.server.notification(id)?.state }

    @Test func windowsMatchByNameEitherCaseOrByProcess() {
        let nautilus = Self.window("org.gnome.Nautilus")
        #expect(nautilus.isFocused(appIdentity: "org.gnome.Nautilus.desktop", system: nil))
        #expect(nautilus.isFocused(appIdentity: "org.gnome.nautilus", system: nil))
        #expect(!nautilus.isFocused(appIdentity: "Nautilus", system: nil), "only whole names")
        let flatpak = SenderIdentity(.flatpak, "org.mozilla.firefox")
        #expect(Self.window("org.mozilla.firefox").isFocused(appIdentity: "Firefox", system: flatpak), "by the sandbox's id")
        let terminal = SenderIdentity(.executable, "/usr/bin/foot")
        #expect(Self.window("x", identity: terminal).isFocused(appIdentity: "notify-send", system: terminal), "by the process (X11)")
        #expect(!Self.window("/usr/bin/foot").isFocused(appIdentity: "x", system: terminal), "an executable's path is no app id")
        #expect(!DesktopContext().isFocused(appIdentity: "x", system: nil), "no context, no rule")
    }

    /// Apple: an app in front shows no banner of its own; the center still has it, unread.
    @Test mutating func theFocusedAppsNotificationsAreQuiet() throws {
        _ = attention.follow(Self.window("chat"), now: now)
        let chat = try attention.notify(.make(app: "chat", summary: "hi"), from: ":1.1", now: now)
        #expect(state(chat.id) == .quiet)
        #expect(!chat.events.contains { if case .playSound = $0 { true } else { false } })
        #expect(attention.server.notification(chat.id)?.decision?.inForeground == true)
        #expect(attention.server.notification(chat.id)?.decision?.unread == true, "it counts toward the badge")
        let mail = try attention.notify(.make(app: "mail"), from: ":1.2", now: now)
        #expect(state(mail.id) == .presented, "another app's banner shows")
        let urgent = try attention.notify(.make(app: "chat", summary: "call", hints: ["urgency": .byte(2)]), from: ":1.1", now: now)
        #expect(state(urgent.id) == .presented, "time-sensitive still shows")
        _ = attention.follow(Self.window("editor"), now: now)
        let editor = try attention.notify(.make(app: "editor", summary: "saved"), from: ":1.3", now: now)
        #expect(state(editor.id) == .presented, "quiet-when-focused = false")
    }

    /// A fullscreen window holds banners and sounds (critical excepted); leaving fullscreen
    /// presents one summary, not a burst.
    @Test mutating func fullscreenHoldsAllButCriticalAndEndsInOneSummary() throws {
        _ = attention.follow(Self.window("mpv", fullscreen: true), now: now)
        #expect(attention.currentFocus == .init(name: FocusMode.fullscreen, source: .fullscreen, until: nil))
        var held: [UInt32] = []
        for index in 0..<5 {
            held.append(try attention.notify(.make(app: "chat", summary: "m\(index)"), from: ":1.1", now: now).id)
        }
        held.append(try attention.notify(.make(app: "chat", summary: "call", hints: ["urgency": .byte(2)]), from: ":1.1", now: now).id)
        #expect(held.allSatisfy { state($0) == .heldByFocus(FocusMode.fullscreen) }, "time-sensitive waits too")
        let critical = try attention.notify(.make(app: "alarm", hints: ["x-chime-interruption-level": .string("critical")]),
                                            from: ":1.2", now: now)
        #expect(state(critical.id) == .presented)
        let timer = try attention.notify(.make(app: "timer"), from: ":1.3", now: now)
        #expect(state(timer.id) == .presented, "hold-in-fullscreen = false")

        let ended = attention.follow(Self.window("mpv"), now: now)
        #expect(attention.currentFocus == nil)
        #expect(held.allSatisfy { state($0) == .quiet }, "in the center, no banner each")
        let shown = ended.compactMap { if case .presented(let n) = $0 { n.request.summary } else { nil } }
        #expect(shown == ["While Full Screen was on"])
    }

    /// Chime's own notifications are decided as the app `chime`: a Focus's recap that comes
    /// while a fullscreen window has the focus waits with everything else, and leaving
    /// fullscreen brings one recap, which counts it.
    @Test mutating func chimesOwnRecapWaitsForFullscreenLikeAnyNotification() throws {
        attention = Attention(settings: { var s = ChimeSettings(); s.focusModes.append(FocusMode(name: "work")); return s }())
        _ = try attention.focusOn("work", until: nil, now: now)
        let mail = try attention.notify(.make(app: "mail"), from: ":1.1", now: now)
        #expect(state(mail.id) == .heldByFocus("work"))
        _ = attention.follow(Self.window("mpv", fullscreen: true), now: now)
        let off = attention.focusOff(now: now)
        #expect(attention.currentFocus?.name == FocusMode.fullscreen)
        let recap = try #require(attention.server.notifications.first { $0.request.summary == "While Work was on" })
        #expect(recap.state == .heldByFocus(FocusMode.fullscreen), "no banner of Chime's over the fullscreen window")
        #expect(recap.decision?.reasons.map(\.text).contains("banner waited: a fullscreen window has the focus") == true)
        #expect(!off.contains { if case .presented = $0 { true } else { false } })

        let ended = attention.follow(Self.window("mpv"), now: now)
        let shown = ended.compactMap { if case .presented(let n) = $0 { n.request.summary } else { nil } }
        #expect(shown == ["While Full Screen was on"], "one recap, after")
        #expect(state(recap.id) == .quiet)
    }

    /// What the person turned on wins over the fullscreen window; a schedule does not.
    @Test mutating func fullscreenComesAfterManualFocusBeforeSchedules() throws {
        var settings = attention.settings
        var work = FocusMode(name: "work")
        work.schedules = [try FocusSchedule.parse("daily 09:00-17:00").get()]
        settings.focusModes.append(work)
        _ = attention.apply(settings, now: now)
        #expect(attention.currentFocus?.name == "work")
        _ = attention.follow(Self.window("game", fullscreen: true), now: now)
        #expect(attention.currentFocus?.name == FocusMode.fullscreen)
        _ = try attention.focusOn(FocusMode.doNotDisturb, until: nil, now: now)
        #expect(attention.currentFocus?.name == FocusMode.doNotDisturb)
        _ = attention.focusOff(now: now)
        #expect(attention.currentFocus?.name == FocusMode.fullscreen)
    }

    /// `[general] hold-in-fullscreen = false` lets every app through but those that ask to wait.
    @Test func theGlobalSettingsAreEachAppsDefault() {
        var settings = ChimeSettings()
        settings.holdInFullscreen = false
        settings.quietWhenFocused = false
        settings.apps["game-chat"] = ["hold-in-fullscreen": "true"]
        let registry = AppRegistry()
        #expect(!registry.settings(for: "mail", config: settings).holdInFullscreen)
        #expect(!registry.settings(for: "mail", config: settings).quietWhenFocused)
        #expect(registry.settings(for: "game-chat", config: settings).holdInFullscreen)
    }
}
