import ChimeCore
import ChimeTestSupport
import Foundation
@testable import ChimeDBus

/// Enough of logind for the lock state: org.freedesktop.login1 on the stand-in system bus,
/// answering Properties.Get for LockedHint and announcing changes with PropertiesChanged.
/// Serves on a thread of its own; libdbus connections are thread-safe.
final class FakeLogind: @unchecked Sendable {
    private let connection: BusConnection
    private let lock = NSLock()
    private var locked: Bool
    private var running = true
    private var thread: Thread?

    init(address: String, locked: Bool) throws {
        self.locked = locked
        connection = try BusConnection(address: address)
        _ = try connection.requestName("org.freedesktop.login1", replace: false)
        connection.setHandler { [unowned self] message in
            guard message.kind == .methodCall, message.member == "Get" else { return false }
            connection.send(message.reply([.variant(.bool(lock.withLock { self.locked }))]))
            return true
        }
        let thread = Thread { [unowned self] in
            while lock.withLock({ running }) { _ = connection.readWriteDispatch(timeoutMilliseconds: 50) }
        }
        self.thread = thread
        thread.start()
    }

    func stop() {
        lock.withLock { running = false }
        while thread?.isFinished == false { usleep(1_000) }
    }

    func setLocked(_ value: Bool) {
        lock.withLock { locked = value }
        connection.send(.signal(path: "/org/freedesktop/login1/session/auto", interface: "org.freedesktop.DBus.Properties",
                                name: "PropertiesChanged",
                                arguments: [.string("org.freedesktop.login1.Session"), .vardict([("LockedHint", .bool(value))]),
                                            .stringArray([])]))
        connection.flush()
    }
}
