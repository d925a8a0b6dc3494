/// Who a bus connection is, as the system says (chimed(1), "Who is sending"): a Flatpak app
/// id, a Snap name, a systemd app unit's application id, else the executable. What an app
/// claims (`desktop-entry`, app_name) names it for display; this decides what it may do.
public struct SenderIdentity: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case flatpak, snap
        /// An app launched in a systemd unit of its own (`app-…-ID-….scope`, `app-ID@….service`).
        case systemd
        case executable
    }

    public var kind: Kind
    /// The Flatpak app id, Snap name, application id, or the executable's path.
    public var id: String

    public init(_ kind: Kind, _ id: String) {
        self.kind = kind
        self.id = id
    }

    /// A sandbox says who it is; an app outside one may claim any desktop entry.
    public var isSandboxed: Bool { kind == .flatpak || kind == .snap }

    public var description: String { "\(kind.rawValue):\(id)" }

    /// From what /proc says of the process: the Flatpak app id (read from its `.flatpak-info`),
    /// its cgroup file's text, and where its executable is. Nil when nothing is known.
    public static func derive(flatpakApp: String?, cgroup: String?, executable: String?) -> SenderIdentity? {
        if let flatpakApp, !flatpakApp.isEmpty { return SenderIdentity(.flatpak, flatpakApp) }
        if let unit = cgroup.flatMap(lastUnit) {
            if let snap = snapName(unit) { return SenderIdentity(.snap, snap) }
            if let app = applicationID(unit) { return SenderIdentity(.systemd, app) }
        }
        if let executable, !executable.isEmpty { return SenderIdentity(.executable, executable) }
        return nil
    }

    /// The innermost unit of the unified hierarchy's line (`0::/user.slice/…/app-….scope`).
    static func lastUnit(_ cgroup: String) -> String? {
        let line = cgroup.split(separator: "\n").first { $0.hasPrefix("0::") } ?? cgroup.split(separator: "\n").last
        return line?.split(separator: "/").last.map(String.init)
    }

    /// `snap.NAME.APP.scope` or `snap.NAME.APP-….scope`, or a service `snap.NAME.APP.service`.
    static func snapName(_ unit: String) -> String? {
        let parts = unit.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "snap", !parts[1].isEmpty else { return nil }
        return String(parts[1])
    }

    /// The application id of an XDG app unit: `app[-LAUNCHER]-ID[@RANDOM].service` or
    /// `app[-LAUNCHER]-ID-RANDOM.scope`, with `-` in the id escaped as `\x2d`.
    static func applicationID(_ unit: String) -> String? {
        guard unit.hasPrefix("app-") else { return nil }
        var name: Substring
        if unit.hasSuffix(".service") {
            name = unit.dropFirst(4).dropLast(8)
            if let at = name.firstIndex(of: "@") { name = name[..<at] }
        } else if unit.hasSuffix(".scope") {
            name = unit.dropFirst(4).dropLast(6)
            guard let dash = name.lastIndex(of: "-") else { return nil }
            name = name[..<dash]
        } else {
            return nil
        }
        // What is left is ID or LAUNCHER-ID: the id's own dashes are escaped.
        if let dash = name.lastIndex(of: "-") { name = name[name.index(after: dash)...] }
        // Split on the escape's four characters; what lies between them is kept as it is.
        let id = name.split(separator: "\\", omittingEmptySubsequences: false).enumerated().map { index, part in
            index > 0 && part.hasPrefix("x2d") ? "-" + part.dropFirst(3) : (index > 0 ? "\\" + part : part)
        }.joined()
        return id.isEmpty ? nil : id
    }
}
