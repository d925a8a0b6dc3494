import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Owning the name, giving it up, and stopping.
@Suite struct LifecycleTests {
    @Test func aSecondDaemonNamesTheOwnerAndExits1() throws {
        let bus = try TestBus()
        let second = try bus.startChimed(waitUntilServing: false)
        #expect(second.wait(timeout: 10) == 1)
        let pid = try #require(bus.daemon?.pid)
        #expect(second.stderr.contains("org.freedesktop.Notifications is already owned by chimed (pid \(pid))"))
        #expect(second.stderr.contains("--replace"))
    }

    /// Another daemon (dunst, mako, swaync) does not give the name up: chimed says how to stop
    /// it, not to run --replace, which would be refused.
    @Test func anotherDaemonIsToBeStoppedNotReplaced() throws {
        let bus = try TestBus(daemon: false)
        // As dunst does: owns the name with GLib, and never allows it to be replaced.
        let other = try bus.start("/usr/bin/python3", ["-c", """
            from gi.repository import Gio, GLib
            Gio.bus_own_name(Gio.BusType.SESSION, 'org.freedesktop.Notifications', Gio.BusNameOwnerFlags.NONE, None,
                             lambda *a: print('acquired', flush=True), None)
            GLib.MainLoop().run()
            """])
        defer { other.signal(SIGTERM) }
        #expect(other.line(timeout: 10, matching: { $0 == "acquired" }) != nil, "\(other.stderr)")
        for arguments in [[], ["--replace"]] {
            let chimed = try bus.startChimed(arguments, waitUntilServing: false)
            #expect(chimed.wait(timeout: 10) == 1)
            #expect(chimed.stderr.contains("which does not give it up; stop it first: systemctl --user disable --now "), "\(chimed.stderr)")
            #expect(!chimed.stderr.contains("--replace"), "\(arguments): \(chimed.stderr)")
        }
    }

    /// chimed carries the parts of the Swift and C++ runtimes it calls: their shared libraries
    /// would keep their relocated data and start-up work resident all session long.
    @Test func chimedMapsNoRuntimeLibrary() throws {
        let bus = try TestBus()
        let pid = try #require(bus.daemon?.pid)
        let maps = try #require(procFile(pid, "maps"))
        #expect(!maps.contains("libstdc++") && !maps.contains("libswiftCore"), "\(maps)")
    }

    /// Idle, chimed sleeps: housekeeping follows a change and stops, and with no Focus schedule,
    /// summary time or timed Focus nothing wakes it on the minute. Awaited: a quiet stretch of
    /// 6 s (the old housekeeping woke it every 5 s, so it never came).
    @Test func anIdleChimedSleeps() throws {
        let bus = try TestBus()
        let pid = try #require(bus.daemon?.pid)
        _ = try bus.client().notify()
        let deadline = Date().addingTimeInterval(40)
        var quiet = false
        while !quiet, Date() < deadline {
            let before = contextSwitches(of: pid)
            Thread.sleep(forTimeInterval: 6)  // the stretch measured, not a wait for an event
            quiet = wakeups(from: before, to: contextSwitches(of: pid)) == 0
        }
        #expect(quiet, "chimed woke in every 6 s for 40 s")
    }

    @Test func replaceTakesTheNameOverAndTheOldDaemonLeaves() throws {
        let bus = try TestBus()
        let first = try #require(bus.daemon)
        let second = try bus.startChimed(["--replace"])
        #expect(first.wait(timeout: 10) == 0)
        #expect(first.stderr.contains("another server took org.freedesktop.Notifications"))
        let id = try bus.client().notify()
        #expect(id >= 1)
        #expect(second.isRunning)
        second.signal(SIGTERM)
        #expect(second.wait(timeout: 10) == 0)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalsStopTheDaemonCleanlyAndReleaseTheName(signal: Int32) throws {
        let bus = try TestBus()
        let daemon = try #require(bus.daemon)
        daemon.signal(signal)
        #expect(daemon.wait(timeout: 10) == 0)
        let owner = try bus.run("gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                          "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"])
        #expect(owner.stdout == "(false,)")
    }

    @Test func theDaemonExitsWhenTheBusGoesAway() throws {
        var bus: TestBus? = try TestBus(daemon: false)
        let daemon = try bus!.startChimed()
        bus = nil  // kills the dbus-daemon
        #expect(daemon.wait(timeout: 10) == 1)
        #expect(daemon.stderr.contains("the session bus went away"))
    }

    /// The bus killed while chimed writes (replies and signals for a flood of large notifications):
    /// the socket's read and write watches hang up together, and chimed exits as above, not by a signal.
    @Test func theDaemonExitsWhenTheBusGoesAwayMidWrite() throws {
        let bus = try TestBus()
        let daemon = try #require(bus.daemon)
        let client = try bus.client()
        let body = String(repeating: "w", count: 60_000)
        for index in 0..<300 {
            client.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                               interface: "org.freedesktop.Notifications", method: "Notify",
                                               arguments: TestClient.notifyArguments(summary: "\(index)", body: body)))
        }
        client.connection.flush()
        #expect(client.waitUntil { client.replies.count >= 50 }, "chimed is answering")
        bus.killBus()
        #expect(daemon.wait(timeout: 10) == 1, Comment(rawValue: daemon.stderr.suffix(2_000).description))
        #expect(daemon.stderr.contains("the session bus went away"))
    }

    @Test func badCommandLinesExit2() throws {
        let bus = try TestBus(daemon: false)
        let result = try bus.run(TestBus.chimed, ["--frobnicate"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("usage: chimed"))
    }
}

/// The activation files in dbus/ start chimed on demand, as an installed Chime is started.
/// The activated chimed is the bus's child; it exits when the test's bus goes away.
@Suite struct ActivationTests {
    @Test func notifySendStartsChimedThroughDBusActivation() throws {
        let bus = try TestBus(daemon: false, activation: true)
        let sent = try bus.run("notify-send", ["-p", "Activated", "by the bus"])
        #expect(sent.status == 0)
        #expect(sent.stdout == "1")
        #expect(try bus.chimectl("list").stdout.contains("Activated"))
    }

    @Test func chimectlStartsChimedThroughDBusActivation() throws {
        let bus = try TestBus(daemon: false, activation: true)
        let status = try bus.chimectl("status", "--json")
        #expect(status.status == 0)
        #expect(status.stdout.contains("\"open\":0"))
    }
}

/// One chimed per notification store.
@Suite struct StoreLockTests {
    @Test func aSecondChimedOnTheSameStoreIsRefused() throws {
        let first = try TestBus()
        // Another bus, the same state folder.
        let second = try TestBus(daemon: false)
        var env = second.environment
        env["XDG_STATE_HOME"] = first.directory.appendingPathComponent("state").path
        let other = try Subprocess(TestBus.chimed, [], environment: env)
        #expect(other.wait(timeout: 15) == 1)
        #expect(other.stderr.contains("another chimed is using"))
        #expect(try first.run("notify-send", ["still", "works"]).status == 0)
    }
}

/// Where `make install` puts the user unit: where systemd reads user units for that prefix.
/// `make -n` prints the recipe without building or installing anything.
@Suite struct InstallTests {
    func installRecipe(prefix: String, home: String) throws -> String {
        let make = try Subprocess("/usr/bin/make", ["-n", "-C", TestBus.packageRoot.path, "install", "PREFIX=\(prefix)", "HOME=\(home)"],
                                  environment: ProcessInfo.processInfo.environment)
        #expect(make.wait(timeout: 30) == 0, "\(make.stderr)")
        return make.stdout
    }

    @Test func aHomePrefixPutsTheUnitWhereSystemdReadsAUsersUnits() throws {
        let recipe = try installRecipe(prefix: "/home/ada/.local", home: "/home/ada")
        #expect(recipe.contains("> /home/ada/.local/share/systemd/user/chimed.service"), "\(recipe)")
        #expect(!recipe.contains("/home/ada/.local/lib/systemd"), "systemd never reads ~/.local/lib")
    }

    @Test func aSystemPrefixPutsTheUnitInItsLibFolder() throws {
        let recipe = try installRecipe(prefix: "/usr/local", home: "/home/ada")
        #expect(recipe.contains("> /usr/local/lib/systemd/user/chimed.service"), "\(recipe)")
        #expect(recipe.contains("> /usr/local/share/dbus-1/services/"), "the activation files beside it")
    }
}
