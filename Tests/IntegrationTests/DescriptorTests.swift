import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// File descriptors passed with calls (SCM_RIGHTS): chimed takes them only where a method reads
/// them (the portal's icons and sounds), so no client can use up its open files and cost it the
/// bus connection.
@Suite struct DescriptorTests {
    /// chimed's open files, as /proc lists them.
    static func openFiles(_ pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// 3,000 pipelined Notify calls with 16 descriptors each in their hints, against a chimed with
    /// the usual soft limit of 1,024 open files (and a hard one no higher): each is refused, and
    /// chimed serves on with few files open.
    @Test func notifyCallsCarryingDescriptorsAreRefusedAndCostNothing() throws {
        let bus = try TestBus(daemon: false)
        let daemon = try bus.startChimed(["--nofile=1024:1024", TestBus.chimed], executable: "/usr/bin/prlimit")
        let null = open("/dev/null", O_RDONLY)
        defer { close(null) }
        let flooder = try bus.client()
        let hints = (0..<16).map { ("x-fd-\($0)", BusValue.variant(.unixFD(0))) }
        let count = 3_000
        for index in 0..<count {
            flooder.connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                                interface: "org.freedesktop.Notifications", method: "Notify",
                                                arguments: TestClient.notifyArguments(summary: "fd \(index)", hints: hints),
                                                descriptors: [null]))
            // The test's own copies go once sent.
            if index % 100 == 99 { flooder.connection.flush() }
        }
        flooder.connection.flush()
        #expect(flooder.waitUntil(timeout: 120) { flooder.replies.count == count }, "\(flooder.replies.count) of \(count) answered")
        #expect(flooder.replies.allSatisfy { $0.kind == .error && $0.errorName == BusError.invalidArgs }, "each refused")
        #expect(daemon.isRunning, "chimed kept its bus connection: \(bus.daemonLog)")
        let client = try bus.client()
        #expect(try client.notify(summary: "still here") > 0)
        #expect(Self.openFiles(daemon.pid) < 100, "\(Self.openFiles(daemon.pid)) open")
    }

    /// On the control connection only the portal's AddNotification takes descriptors: a control
    /// call that brings some is refused; a flood of the portal's own, each with 16, is answered
    /// (taken, or told to wait), and chimed keeps few files open.
    @Test func onlyThePortalsCallsTakeDescriptorsAndTheyAreBounded() throws {
        let bus = try TestBus(daemon: false)
        let daemon = try bus.startChimed(["--nofile=1024:1024", TestBus.chimed], executable: "/usr/bin/prlimit")
        let null = open("/dev/null", O_RDONLY)
        defer { close(null) }
        let client = try bus.client()
        do {
            _ = try client.connection.call(.methodCall(destination: "dev.chime.Chime1", path: "/dev/chime/Chime1", interface: "dev.chime.Chime1",
                                                       method: "GetStatus", arguments: [.unixFD(0)], descriptors: [null]))
            Issue.record("a control call took a descriptor")
        } catch {
            #expect(error.name == BusError.invalidArgs && error.message.contains("takes no file descriptors"), "\(error)")
        }
        let frontend = try PortalTests.frontend(bus)
        let count = 1_000
        for index in 0..<count {
            let icons = (0..<16).map { ("x-icon-\($0)", BusValue.structure([.string("file-descriptor"), .variant(.unixFD(0))])) }
            frontend.connection.send(.methodCall(destination: PortalTests.name, path: PortalTests.path, interface: PortalTests.interface,
                                                 method: "AddNotification",
                                                 arguments: [.string("org.example.Chat"), .string("n\(index)"), .vardict([("title", .string("hi"))] + icons)],
                                                 descriptors: [null]))
            if index % 100 == 99 { frontend.connection.flush() }
        }
        frontend.connection.flush()
        #expect(frontend.waitUntil(timeout: 120) { frontend.replies.count == count }, "\(frontend.replies.count) of \(count) answered")
        let answers = Set(frontend.replies.map { $0.errorName ?? "taken" })
        #expect(answers.isSubset(of: ["taken", "org.freedesktop.DBus.Error.LimitsExceeded"]) && answers.contains("taken"), "\(answers)")
        #expect(daemon.isRunning, "\(bus.daemonLog)")
        #expect(Self.openFiles(daemon.pid) < 200, "\(Self.openFiles(daemon.pid)) open")
        #expect(try client.notify(summary: "still here") > 0)
    }

    /// The soft limit a session gives its programs (1,024) is raised to the hard one at start.
    @Test func theSoftLimitOfOpenFilesIsRaisedToTheHardOne() throws {
        let bus = try TestBus(daemon: false)
        let daemon = try bus.startChimed(["--nofile=1024:4096", TestBus.chimed], executable: "/usr/bin/prlimit")
        let limits = procFile(daemon.pid, "limits") ?? ""
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).prefix(2) == ["4096", "4096"], "\(line)")
    }
}
