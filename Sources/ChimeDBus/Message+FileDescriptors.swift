import CDBus
import ChimeCore

extension Message {
    /// Whether file descriptors came with it.
    public var carriesDescriptors: Bool { dbus_message_contains_unix_fds(raw) != 0 }

    /// The file descriptors the message carries, in the order its arguments hold them (the order
    /// `ArgumentReader.all()` meets their `.unixFD` values): each a duplicate the caller closes.
    /// libdbus closes its own with the message.
    public func fileDescriptors() -> [Int32] {
        var descriptors: [Int32] = []
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        Self.collect(&iter, into: &descriptors)
        return descriptors
    }

    private static func collect(_ iter: inout DBusMessageIter, into descriptors: inout [Int32]) {
        repeat {
            let type = dbus_message_iter_get_arg_type(&iter)
            if type == TypeCode.unixFD {
                var descriptor: Int32 = -1
                dbus_message_iter_get_basic(&iter, &descriptor)
                descriptors.append(descriptor)
            } else if type == TypeCode.array || type == TypeCode.structure || type == TypeCode.variant || type == TypeCode.dictEntry {
                // Arrays of bytes hold no descriptors: not stepped through.
                if type == TypeCode.array, dbus_message_iter_get_element_type(&iter) == TypeCode.byte { continue }
                var inner = DBusMessageIter()
                dbus_message_iter_recurse(&iter, &inner)
                if dbus_message_iter_get_arg_type(&inner) != TypeCode.invalid { collect(&inner, into: &descriptors) }
            }
        } while dbus_message_iter_next(&iter) != 0
    }
}
