import ChimeControl
import ChimeCore
import ChimeDBus

/// chimectl's side of dev.chime.Chime1: blocking calls with errors a person can read.
struct ControlClient {
    static let name = ControlProtocol.name
    static let path = ControlProtocol.path

    let connection: BusConnection

    init() throws(CommandLineError) {
        do {
            connection = try BusConnection()
        } catch {
            throw .failure(tr("cannot reach the session bus ({message}); is DBUS_SESSION_BUS_ADDRESS set?", ["message": error.message]))
        }
    }

    func call(_ method: String, _ arguments: [BusValue] = []) throws(CommandLineError) -> [BusValue] {
        do {
            return try connection.call(.methodCall(destination: Self.name, path: Self.path, interface: Self.name,
                                                   method: method, arguments: arguments))
        } catch where error.name == BusError.serviceUnknown || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            throw .failure(tr("chimed is not running (no owner of {name} on the session bus)", ["name": Self.name]))
        } catch where error.name == BusError.unknownName {
            throw CommandLineError(message: "chimectl: \(error.message)", exitCode: 2)
        } catch {
            throw .failure(error.message)
        }
    }

    /// A method that returns an array of a{sv}.
    func records(_ method: String, _ arguments: [BusValue] = []) throws(CommandLineError) -> [[String: BusValue]] {
        try call(method, arguments).first?.records ?? []
    }

    /// A paged listing (List, History, SummaryList), every page of it: each call passes the
    /// `next` its last page returned as `after`, until one returns none. `limit`, if any, counts
    /// across the pages.
    func pages(_ method: String, _ filter: [(String, BusValue)] = [], limit: Int? = nil) throws(CommandLineError) -> [[String: BusValue]] {
        var records: [[String: BusValue]] = []
        var after = ""
        repeat {
            var options = filter
            if let limit { options.append(("limit", .uint32(UInt32(limit - records.count)))) }
            if !after.isEmpty { options.append(("after", .string(after))) }
            let reply = try call(method, [.vardict(options)])
            records += reply.first?.records ?? []
            after = reply.count > 1 ? reply[1].string ?? "" : ""
        } while !after.isEmpty && records.count < (limit ?? .max)
        return records
    }

    func notifications() throws(CommandLineError) -> [[String: BusValue]] { try pages("List") }

    /// The newest notification with its banner up (nearest the corner): what `dismiss` and
    /// `invoke` act on without an ID, as makoctl and dunstctl do.
    func newestPresented() throws(CommandLineError) -> UInt32 {
        guard let id = try notifications().last(where: { $0["state"]?.string == "presented" })?["id"]?.integer else {
            throw .failure(tr("no notification is presented"))
        }
        return UInt32(id)
    }

    /// The notification closed last, of the center's newest 200: what `restore` brings back
    /// without an ID, as `dunstctl history-pop` and `makoctl restore` do.
    func lastClosed() throws(CommandLineError) -> UInt32 {
        let closed = try pages("History", limit: 200).filter { $0["close-reason"] != nil }
        guard let id = closed.max(by: { ($0["updated"]?.integer ?? 0) < ($1["updated"]?.integer ?? 0) })?["id"]?.integer else {
            throw .failure(tr("no closed notification in the center to restore"))
        }
        return UInt32(id)
    }
}
