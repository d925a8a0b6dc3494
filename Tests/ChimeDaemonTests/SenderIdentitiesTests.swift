import ChimeCore
import Foundation
import Glibc
import Testing
@testable import ChimeDaemon

/// What /proc says of a process, read from a tree of the same shape: `.flatpak-info` through
/// GKeyFile, the cgroup file, and the executable's link; and this very process, from /proc.
@Suite struct SenderIdentitiesTests {
    func process(_ pid: Int32, in root: URL, flatpakInfo: String? = nil, cgroup: String, exe: String) throws {
        let folder = root.appendingPathComponent("\(pid)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("root"), withIntermediateDirectories: true)
        if let flatpakInfo { try flatpakInfo.write(to: folder.appendingPathComponent("root/.flatpak-info"), atomically: true, encoding: .utf8) }
        try cgroup.write(to: folder.appendingPathComponent("cgroup"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("exe").path, withDestinationPath: exe)
    }

    @Test func aFlatpakIsReadFromItsFlatpakInfo() throws {
        let root = temporaryFolder("proc")
        try process(7, in: root, flatpakInfo: "[Application]\nname=org.example.Chat\nruntime=runtime/org.gnome.Platform/x86_64/46\n",
                    cgroup: "0::/user.slice/app.slice/app-flatpak-org.example.Chat-12.scope\n", exe: "/app/bin/chat")
        try process(8, in: root, flatpakInfo: "not a key file", cgroup: "0::/user.slice/session-2.scope\n", exe: "/usr/bin/gdbus")
        try process(9, in: root, cgroup: "0::/user.slice/app.slice/app-org.gnome.Terminal-3.scope\n", exe: "/usr/bin/bash")
        let identities = SenderIdentities(address: "unix:path=/nonexistent", procRoot: root.path)
        #expect(identities.describe(7) == SenderIdentity(.flatpak, "org.example.Chat"))
        #expect(identities.describe(8) == SenderIdentity(.executable, "/usr/bin/gdbus"), "a broken .flatpak-info proves nothing")
        #expect(identities.describe(9) == SenderIdentity(.systemd, "org.gnome.Terminal"))
        #expect(identities.describe(10) == nil)
        #expect(identities.identity(of: ":1.5") == nil, "without a bus nothing is known")
    }

    @Test func thisProcessIsItsExecutable() {
        let identities = SenderIdentities(address: "unix:path=/nonexistent")
        let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let described = identities.describe(getpid())
        #expect(described?.id == exe || described?.kind == .systemd, "\(String(describing: described))")
    }
}
