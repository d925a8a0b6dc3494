import ChimeCore
import ChimeTestSupport
import Foundation
@testable import ChimeDBus

/// A libdbus client connection that sends Notify calls and collects the signals addressed to it.
final class TestClient: @unchecked Sendable {
    let connection: BusConnection
    private(set) var signals: [(member: String, destination: String?, arguments: [BusValue])] = []
    private(set) var replies: [Message] = []

    init(address: String) throws {
        connection = try BusConnection(address: address)
        connection.setHandler { [unowned self] message in
            switch message.kind {
            case .signal where message.interface != "org.freedesktop.DBus":
                signals.append((message.member ?? "", message.destination, message.arguments))
            case .methodReturn, .error:
                replies.append(message)
            default: break
            }
            return true
        }
    }

    var uniqueName: String { connection.uniqueName }

    static func notifyArguments(app: String = "test", replaces: UInt32 = 0, icon: String = "", summary: String = "Hello",
                                body: String = "", actions: [String] = [], hints: [(String, BusValue)] = [],
                                timeout: Int32 = -1) -> [BusValue] {
        [.string(app), .uint32(replaces), .string(icon), .string(summary), .string(body),
         .stringArray(actions), .vardict(hints), .int32(timeout)]
    }

    func call(_ method: String, _ arguments: [BusValue], interface: String = "org.freedesktop.Notifications",
              path: String = "/org/freedesktop/Notifications", destination: String = "org.freedesktop.Notifications") throws(BusError) -> [BusValue] {
        try connection.call(.methodCall(destination: destination, path: path, interface: interface,
                                        method: method, arguments: arguments), timeoutMilliseconds: 10_000)
    }

    func notify(app: String = "test", replaces: UInt32 = 0, icon: String = "", summary: String = "Hello", body: String = "",
                actions: [String] = [], hints: [(String, BusValue)] = [], timeout: Int32 = -1) throws(BusError) -> UInt32 {
        let reply = try call("Notify", Self.notifyArguments(app: app, replaces: replaces, icon: icon, summary: summary,
                                                            body: body, actions: actions, hints: hints, timeout: timeout))
        guard case .uint32(let id)? = reply.first else { throw BusError(BusError.failed, "no id in reply") }
        return id
    }

    /// The error name chimed refuses a Notify with; nil when it takes it.
    func refusal(app: String, summary: String) -> String? {
        do throws(BusError) {
            _ = try notify(app: app, summary: summary)
            return nil
        } catch {
            return error.name
        }
    }

    func control(_ method: String, _ arguments: [BusValue] = []) throws(BusError) -> [BusValue] {
        try call(method, arguments, interface: "dev.chime.Chime1", path: "/dev/chime/Chime1", destination: "dev.chime.Chime1")
    }

    /// The open notifications as chimed lists them, every page.
    func list() throws -> [[String: BusValue]] { try pages("List") }

    /// Every page of a paged listing (List, History, SummaryList), following `next`.
    func pages(_ method: String, _ filter: [(String, BusValue)] = []) throws -> [[String: BusValue]] {
        var records: [[String: BusValue]] = []
        var after = ""
        repeat {
            let reply = try control(method, [.vardict(filter + (after.isEmpty ? [] : [("after", .string(after))]))])
            guard reply.count == 2 else { throw TestFailure("\(method) replied \(reply.count) values, not a page") }
            records += reply[0].records
            after = reply[1].string ?? ""
        } while !after.isEmpty
        return records
    }

    func listen(_ rule: String = "type='signal',interface='org.freedesktop.Notifications'") throws {
        try connection.addMatch(rule)
    }

    /// Reads messages until `condition` holds or `timeout` passes; returns whether it held.
    @discardableResult
    func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            _ = connection.readWriteDispatch(timeoutMilliseconds: Int32(min(remaining, 0.2) * 1000) + 1)
        }
        return true
    }

    func signals(named member: String) -> [(member: String, destination: String?, arguments: [BusValue])] {
        signals.filter { $0.member == member }
    }
}
