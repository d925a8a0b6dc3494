import CDraw
import Glibc

/// A window property's bytes, as the X server holds them: the work area, the resources, the
/// settings daemon's settings.
enum X11Property {
    /// At most `limit` bytes of property `name` of `window`, if it has one of `type`.
    static func bytes(_ connection: OpaquePointer, _ window: xcb_window_t, _ name: xcb_atom_t, type: xcb_atom_t,
                      limit: Int = 65_536) -> [UInt8]? {
        guard name != 0, let reply = xcb_get_property_reply(connection, xcb_get_property(connection, 0, window, name, type, 0,
                                                                                          UInt32(limit / 4)), nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard length > 0, let value = xcb_get_property_value(reply) else { return nil }
        return Array(UnsafeRawBufferPointer(start: value, count: length))
    }
}
