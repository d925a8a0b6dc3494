import Testing
@testable import ChimeCore

/// Who a process is, from what /proc says of it: a sandbox first, then a systemd app unit, then
/// the executable.
@Suite struct SenderIdentityTests {
    static let terminalScope = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Terminal-4012.scope\n"

    @Test func aFlatpakIsItsAppIdWhateverElseIsTrue() {
        #expect(SenderIdentity.derive(flatpakApp: "org.mozilla.firefox", cgroup: Self.terminalScope, executable: "/app/bin/firefox")
                == SenderIdentity(.flatpak, "org.mozilla.firefox"))
        #expect(SenderIdentity(.flatpak, "a").isSandboxed && SenderIdentity(.snap, "a").isSandboxed)
        #expect(!SenderIdentity(.systemd, "a").isSandboxed && !SenderIdentity(.executable, "/a").isSandboxed)
    }

    @Test func aSnapIsItsNameFromItsCgroup() {
        let cgroup = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.telegram-desktop.telegram-desktop-6a2c.scope"
        #expect(SenderIdentity.derive(flatpakApp: nil, cgroup: cgroup, executable: "/snap/x") == SenderIdentity(.snap, "telegram-desktop"))
    }

    @Test(arguments: [
        ("app-gnome-org.gnome.Terminal-4012.scope", "org.gnome.Terminal"),
        ("app-org.gnome.Terminal-4012.scope", "org.gnome.Terminal"),
        ("app-flatpak-org.example.App@1234.service", "org.example.App"),
        ("app-org.example.App.service", "org.example.App"),
        ("app-kde-org.kde.my\\x2dtool-99.scope", "org.kde.my-tool"),
    ])
    func aSystemdAppUnitIsItsApplicationID(unit: String, id: String) {
        #expect(SenderIdentity.derive(flatpakApp: nil, cgroup: "0::/user.slice/app.slice/" + unit, executable: "/usr/bin/x")
                == SenderIdentity(.systemd, id))
    }

    @Test func otherwiseTheExecutable() {
        let session = "0::/user.slice/user-1000.slice/session-2.scope\n"
        #expect(SenderIdentity.derive(flatpakApp: nil, cgroup: session, executable: "/usr/bin/gdbus") == SenderIdentity(.executable, "/usr/bin/gdbus"))
        #expect(SenderIdentity.derive(flatpakApp: "", cgroup: nil, executable: "/usr/bin/gdbus") == SenderIdentity(.executable, "/usr/bin/gdbus"))
        #expect(SenderIdentity.derive(flatpakApp: nil, cgroup: nil, executable: nil) == nil)
    }

    /// A sandboxed app is named by its sandbox: claiming another app's desktop entry does not give
    /// it that app's settings (here, its consent).
    @Test func aSandboxedAppsClaimOfAnotherAppIsIgnored() throws {
        var attention = Attention()
        attention.setOverride("org.signal.Signal", "authorization", "allowed")
        attention.setOverride("org.evil.App", "authorization", "denied")
        let claim = NotificationRequest.make(app: "Signal", hints: ["desktop-entry": .string("org.signal.Signal")])
        let events = try attention.notify(claim, from: ":1.1", system: SenderIdentity(.flatpak, "org.evil.App"),
                                          now: at(.monday, "10:00")).events
        #expect(events.map(\.closedReason) == [.dismissed], "denied, as itself")
        let honest = try attention.notify(claim, from: ":1.2", system: SenderIdentity(.executable, "/usr/bin/signal-desktop"),
                                          now: at(.monday, "10:00"))
        #expect(attention.server.notification(honest.id)?.appIdentity == "org.signal.Signal", "outside a sandbox the claim stands")
    }

    /// Nor does its app name put it among a Focus's allowed apps.
    @Test func aSandboxedAppsNameIsNotAnAllowedApp() throws {
        var settings = ChimeSettings()
        var work = FocusMode(name: "work")
        work.allowedApps = ["Slack"]
        settings.focusModes.append(work)
        var attention = Attention(settings: settings)
        _ = try attention.focusOn("work", until: nil, now: at(.monday, "10:00"))
        let slack = NotificationRequest.make(app: "Slack", summary: "hi")
        let spoof = try attention.notify(slack, from: ":1.1", system: SenderIdentity(.flatpak, "org.evil.App"), now: at(.monday, "10:00"))
        #expect(attention.server.notification(spoof.id)?.state == .heldByFocus("work"))
        #expect(attention.server.notification(spoof.id)?.request.appName == "Slack", "its name still shows")
        let real = try attention.notify(slack, from: ":1.2", system: SenderIdentity(.executable, "/usr/bin/slack"), now: at(.monday, "10:00"))
        #expect(attention.server.notification(real.id)?.state == .presented)
    }
}
