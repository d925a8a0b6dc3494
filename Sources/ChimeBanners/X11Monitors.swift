import CDraw
import Glibc

/// The monitors of an X screen (RandR 1.5), by name: `[popups] output` names one (HDMI-1, as
/// `xrandr` lists them); without it banners go to the primary monitor, else the first, as GTK's.
struct X11Monitors {
    struct Monitor: Equatable {
        var name: String
        var primary: Bool
        var area: ScreenArea
    }

    private(set) var monitors: [Monitor] = []

    /// Asks the server (which `watch` found to have RandR 1.5).
    init(_ connection: OpaquePointer, root: xcb_window_t) {
        guard let reply = xcb_randr_get_monitors_reply(connection, xcb_randr_get_monitors(connection, root, 1), nil) else { return }
        defer { free(reply) }
        var found: [(xcb_atom_t, Bool, ScreenArea)] = []
        var each = xcb_randr_get_monitors_monitors_iterator(reply)
        while each.rem > 0 {
            let monitor = each.data.pointee
            found.append((monitor.name, monitor.primary != 0,
                          ScreenArea(x: Int(monitor.x), y: Int(monitor.y), width: Int(monitor.width), height: Int(monitor.height))))
            xcb_randr_monitor_info_next(&each)
        }
        // The names asked together, then answered: one round trip.
        let cookies = found.map { xcb_get_atom_name(connection, $0.0) }
        for (monitor, cookie) in zip(found, cookies) {
            var name = ""
            if let reply = xcb_get_atom_name_reply(connection, cookie, nil) {
                name = String(decoding: UnsafeRawBufferPointer(start: xcb_get_atom_name_name(reply),
                                                               count: Int(xcb_get_atom_name_name_length(reply))), as: UTF8.self)
                free(reply)
            }
            monitors.append(Monitor(name: name, primary: monitor.1, area: monitor.2))
        }
    }

    /// The monitor named `output`, else the primary, else the first; nil without RandR.
    func chosen(_ output: String?) -> Monitor? {
        monitors.first { $0.name == output } ?? monitors.first(where: \.primary) ?? monitors.first
    }

    /// Asks for the RandR events that say the monitors changed, and returns the number of the
    /// first (`isChange` knows them by it); nil when the server has no RandR 1.5, which lists
    /// monitors (then the whole screen is one).
    static func watch(_ connection: OpaquePointer, root: xcb_window_t) -> UInt8? {
        guard let extensionData = xcb_get_extension_data(connection, chime_randr_extension()), extensionData.pointee.present != 0,
              let version = xcb_randr_query_version_reply(connection, xcb_randr_query_version(connection, 1, 5), nil) else { return nil }
        defer { free(version) }
        guard (version.pointee.major_version, version.pointee.minor_version) >= (1, 5) else { return nil }
        let mask = XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE.rawValue | XCB_RANDR_NOTIFY_MASK_OUTPUT_CHANGE.rawValue
            | XCB_RANDR_NOTIFY_MASK_CRTC_CHANGE.rawValue
        xcb_randr_select_input(connection, root, UInt16(mask))
        return extensionData.pointee.first_event
    }

    /// Whether an event (its type without the sent bit) is one of RandR's: the monitors may have changed.
    static func isChange(_ type: UInt8, firstEvent: UInt8) -> Bool {
        type == firstEvent + UInt8(XCB_RANDR_SCREEN_CHANGE_NOTIFY) || type == firstEvent + UInt8(XCB_RANDR_NOTIFY)
    }
}
