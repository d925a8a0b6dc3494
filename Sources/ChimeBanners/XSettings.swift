import CDraw
import Glibc

/// What an X11 desktop tells GTK programs beyond settings.ini: the XSETTINGS a settings daemon
/// (gnome-settings-daemon, xfsettingsd, xsettingsd) publishes, and the Xft.dpi resource
/// (`xrdb`). GTK takes these over settings.ini.
struct XSettings {
    var font: String?
    var iconTheme: String?
    /// Font resolution in dots per inch: XSETTINGS' Xft/DPI, else the Xft.dpi resource.
    var dpi: Double?
    /// The resolution before the window scale, which GTK takes when the scale is the daemon's.
    var unscaledDPI: Double?
    var windowScale: Int?
    /// The settings daemon's window, whose property changes say the settings did (0: none).
    var owner: xcb_window_t = 0

    /// Asks the server for both: the settings window's property (`settings`, owned by whoever
    /// owns the selection `selection`, `_XSETTINGS_Sn`), and the root's resources.
    init(_ connection: OpaquePointer, root: xcb_window_t, selection: xcb_atom_t?, settings: xcb_atom_t?) {
        let string = xcb_atom_t(XCB_ATOM_STRING.rawValue)
        if let resources = X11Property.bytes(connection, root, xcb_atom_t(XCB_ATOM_RESOURCE_MANAGER.rawValue), type: string) {
            dpi = Self.xftDPI(in: String(decoding: resources, as: UTF8.self))
        }
        guard let selection, let settings,
              let owner = xcb_get_selection_owner_reply(connection, xcb_get_selection_owner(connection, selection), nil) else { return }
        let window = owner.pointee.owner
        free(owner)
        self.owner = window
        guard window != 0, let bytes = X11Property.bytes(connection, window, settings, type: settings) else { return }
        let values = Self.decode(bytes)
        if case .string(let font)? = values["Gtk/FontName"], !font.isEmpty { self.font = font }
        if case .string(let theme)? = values["Net/IconThemeName"], !theme.isEmpty { iconTheme = theme }
        if case .integer(let value)? = values["Xft/DPI"], value > 0 { dpi = Double(value) / 1024 }
        if case .integer(let value)? = values["Gdk/UnscaledDPI"], value > 0 { unscaledDPI = Double(value) / 1024 }
        if case .integer(let value)? = values["Gdk/WindowScalingFactor"], value > 0 { windowScale = Int(value) }
    }

    enum Value: Equatable {
        case integer(Int32)
        case string(String)
        case colour
    }

    /// The XSETTINGS wire format: byte order, serial, count, then each setting's type, name,
    /// serial and value, every part padded to four bytes. Stops at the first malformed setting.
    static func decode(_ bytes: [UInt8]) -> [String: Value] {
        guard bytes.count >= 12 else { return [:] }
        let bigEndian = bytes[0] == 1
        var offset = 0
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, offset + count <= bytes.count else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        func number(_ count: Int) -> UInt32? {
            guard let raw = take(count) else { return nil }
            let ordered = bigEndian ? Array(raw) : raw.reversed()
            return ordered.reduce(0) { $0 << 8 | UInt32($1) }
        }
        func padded(_ count: Int) -> Int { (count + 3) & ~3 }
        offset = 8
        guard let count = number(4) else { return [:] }
        var values: [String: Value] = [:]
        for _ in 0..<min(Int(count), bytes.count / 8) {
            guard let type = take(1)?.first, take(1) != nil, let nameLength = number(2),
                  let name = take(Int(nameLength)), take(padded(Int(nameLength)) - Int(nameLength)) != nil, number(4) != nil else { break }
            let key = String(decoding: name, as: UTF8.self)
            switch type {
            case 0:
                guard let value = number(4) else { return values }
                values[key] = .integer(Int32(bitPattern: value))
            case 1:
                guard let length = number(4), let text = take(Int(length)), take(padded(Int(length)) - Int(length)) != nil else { return values }
                values[key] = .string(String(decoding: text, as: UTF8.self))
            case 2:
                guard take(8) != nil else { return values }
                values[key] = .colour
            default:
                return values
            }
        }
        return values
    }

    /// "Xft.dpi: 192" among the resources `xrdb` loaded.
    static func xftDPI(in resources: String) -> Double? {
        for line in resources.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.filter { !$0.isWhitespace } }
            guard parts.count == 2, parts[0] == "Xft.dpi" else { continue }
            if let dpi = Double(parts[1]), dpi > 0 { return dpi }
        }
        return nil
    }

}
