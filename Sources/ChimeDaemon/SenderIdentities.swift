import ChimeCore
import ChimeDBus
import ChimeGLib
import Glibc

/// Who each bus connection is, as the system says (chimed(1), "Who is sending"): the bus's
/// `GetConnectionCredentials` gives the process, /proc says what it is (`SenderIdentity`).
/// Asked once per connection, on a connection of its own, before a Notify is answered, so the
/// sender is still on the bus then (notify-send leaves as soon as it has its reply); forgotten
/// when the connection leaves the bus.
final class SenderIdentities {
    /// nil when the bus could not be reached: every identity is then unknown.
    private let lookup: BusConnection?
    private var known: [String: SenderIdentity?] = [:]
    /// Where processes are described: /proc, or a tree of the same shape in tests.
    private let procRoot: String

    init(address: String? = nil, procRoot: String = "/proc") {
        lookup = try? BusConnection(address: address)
        self.procRoot = procRoot
    }

    /// The identity of `sender`, asked of the bus and /proc the first time it is seen.
    func identity(of sender: String?) -> SenderIdentity? {
        guard let sender, sender.hasPrefix(":") else { return nil }
        if let cached = known[sender] { return cached }
        let identity = processID(of: sender).flatMap(describe)
        known[sender] = identity
        return identity
    }

    func forget(_ sender: String) {
        known[sender] = nil
    }

    /// Whether `sender` owns the well-known `name` now (the portal's frontend).
    func owns(_ sender: String, name: String) -> Bool {
        ask("GetNameOwner", name)?.string == sender
    }

    /// Whether the connection `sender` is still on the bus.
    func isPresent(_ sender: String) -> Bool {
        ask("NameHasOwner", sender)?.bool ?? false
    }

    /// The bus daemon's answer about `name`, asked on the lookups' connection: a blocking call on
    /// a connection chimed serves would read, and queue, the calls that came meanwhile.
    private func ask(_ method: String, _ name: String) -> BusValue? {
        (try? lookup?.busCall(method, [.string(name)]))?.first
    }

    private func processID(of sender: String) -> Int32? {
        guard let reply = try? lookup?.busCall("GetConnectionCredentials", [.string(sender)]),
              case .uint32(let pid)? = reply.first?.vardictEntries?["ProcessID"]?.unwrapped else { return nil }
        return Int32(bitPattern: pid)
    }

    /// What /proc says of process `pid`.
    func describe(_ pid: Int32) -> SenderIdentity? {
        let process = "\(procRoot)/\(pid)"
        let flatpak = try? FileContents.read(process + "/root/.flatpak-info").map { text -> String? in
            let file = KeyFile()
            return file.load(text) == nil ? file.string("Application", "name") : nil
        }.get()
        let cgroup = try? FileContents.read(process + "/cgroup").get()
        return SenderIdentity.derive(flatpakApp: flatpak ?? nil, cgroup: cgroup, executable: Self.link(process + "/exe"))
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
