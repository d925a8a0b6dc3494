import ChimeCore
import ChimeTestSupport
import Foundation
@testable import ChimeDBus

/// Enough of logind for the lock and idle state: org.freedesktop.login1 on the stand-in system
/// bus, answering Manager.GetSession("auto") with the session's own path, Properties.GetAll and
/// Get for LockedHint and IdleHint, and announcing changes with PropertiesChanged on that path
/// alone, as logind does (never on ".../session/auto").
final class FakeLogind: @unchecked Sendable {
    static let sessionPath = "/org/freedesktop/login1/session/_32"
    private let lock = NSLock()
    private var hints: [String: Bool]
    private var service: FakeService?

    init(address: String, locked: Bool, idle: Bool = false) throws {
        hints = ["LockedHint": locked, "IdleHint": idle]
        service = try FakeService(address: address, name: "org.freedesktop.login1") { [unowned self] message, connection in
            let hints = lock.withLock { self.hints }
            switch message.member {
            case "GetSession":
                connection.send(message.reply([.objectPath(Self.sessionPath)]))
            case "GetAll":
                connection.send(message.reply([.vardict(hints.sorted { $0.key < $1.key }.map { ($0.key, .bool($0.value)) }
                                                        + [("Name", .string("tester"))])]))
            case "Get":
                connection.send(message.reply([.variant(.bool(hints[message.arguments.last?.string ?? ""] ?? false))]))
            default:
                return false
            }
            return true
        }
    }

    func stop() { service?.stop() }

    func setLocked(_ value: Bool) { set("LockedHint", value) }
    func setIdle(_ value: Bool) { set("IdleHint", value) }

    /// Changes one hint and says so as logind does: PropertiesChanged with that property alone.
    private func set(_ hint: String, _ value: Bool) {
        lock.withLock { hints[hint] = value }
        guard let connection = service?.connection else { return }
        connection.send(.signal(path: Self.sessionPath, interface: "org.freedesktop.DBus.Properties",
                                name: "PropertiesChanged",
                                arguments: [.string("org.freedesktop.login1.Session"), .vardict([(hint, .bool(value))]),
                                            .stringArray([])]))
        connection.flush()
    }
}
