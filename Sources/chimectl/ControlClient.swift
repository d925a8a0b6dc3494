import ChimeCore
import ChimeDBus

/// chimectl's side of dev.chime.Chime1: blocking calls with errors a person can read.
struct ControlClient {
    static let name = "dev.chime.Chime1"
    static let path = "/dev/chime/Chime1"

    let connection: BusConnection

    init() throws(CommandLineError) {
        do {
            connection = try BusConnection()
        } catch {
            throw .failure("cannot reach the session bus (\(error.message)); is DBUS_SESSION_BUS_ADDRESS set?")
        }
    }

    func call(_ method: String, _ arguments: [BusValue] = []) throws(CommandLineError) -> [BusValue] {
        do {
            return try connection.call(.methodCall(destination: Self.name, path: Self.path, interface: Self.name,
                                                   method: method, arguments: arguments))
        } catch where error.name == BusError.serviceUnknown || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            throw .failure("chimed is not running (no owner of \(Self.name) on the session bus)")
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

    func notifications() throws(CommandLineError) -> [[String: BusValue]] { try records("List") }
}
