/// Where the display the presenter opens listens: the socket that goes when a compositor or X
/// server ends and comes back when one starts again. GTK opens Wayland first when both are named.
public enum DisplaySocket {
    public static func path(environment: [String: String]) -> String? {
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            if wayland.hasPrefix("/") { return wayland }
            guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
            return runtime + "/" + wayland
        }
        // ":0", ":0.0", "unix:1": a local X server's socket; "host:10.0" (ssh -X) has none here.
        guard let display = environment["DISPLAY"], let colon = display.lastIndex(of: ":") else { return nil }
        let host = display[..<colon]
        let number = display[display.index(after: colon)...].prefix { $0 != "." }
        guard host.isEmpty || host == "unix", !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        return "/tmp/.X11-unix/X\(number)"
    }
}
