import CDBus
import ChimeCore

/// Reads a message's arguments one at a time, straight into Swift values, for the calls that
/// come often (Notify): no BusValue tree is built for the arguments themselves. Each read
/// returns nil when the next argument is not of the type asked for.
public struct ArgumentReader {
    private let message: Message
    private var iter = DBusMessageIter()
    private var atEnd: Bool

    public init(_ message: Message) {
        self.message = message
        atEnd = dbus_message_iter_init(message.raw, &iter) == 0
    }

    public mutating func string() -> String? {
        guard !atEnd, dbus_message_iter_get_arg_type(&iter) == TypeCode.string else { return nil }
        defer { advance() }
        return Self.string(&iter)
    }

    public mutating func uint32() -> UInt32? { basic(TypeCode.uint32, UInt32(0)) }
    public mutating func int32() -> Int32? { basic(TypeCode.int32, Int32(0)) }

    /// An `as`.
    public mutating func strings() -> [String]? {
        guard isArray(of: TypeCode.string) else { return nil }
        defer { advance() }
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &inner)
        var strings: [String] = []
        while dbus_message_iter_get_arg_type(&inner) == TypeCode.string {
            strings.append(Self.string(&inner))
            dbus_message_iter_next(&inner)
        }
        return strings
    }

    /// An `a{sv}` as its pairs in order, each variant unwrapped.
    public mutating func vardictPairs() -> [(key: String, value: BusValue)]? {
        guard isArray(of: TypeCode.dictEntry) else { return nil }
        defer { advance() }
        var entries = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &entries)
        var pairs: [(key: String, value: BusValue)] = []
        pairs.reserveCapacity(8)
        while dbus_message_iter_get_arg_type(&entries) == TypeCode.dictEntry {
            var entry = DBusMessageIter()
            dbus_message_iter_recurse(&entries, &entry)
            guard dbus_message_iter_get_arg_type(&entry) == TypeCode.string else { return nil }
            let key = Self.string(&entry)
            dbus_message_iter_next(&entry)
            guard dbus_message_iter_get_arg_type(&entry) == TypeCode.variant else { return nil }
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&entry, &inner)
            pairs.append((key, MessageReader.read(&inner).unwrapped))
            dbus_message_iter_next(&entries)
        }
        return pairs
    }

    private mutating func basic<T: BitwiseCopyable>(_ type: Int32, _ zero: T) -> T? {
        guard !atEnd, dbus_message_iter_get_arg_type(&iter) == type else { return nil }
        defer { advance() }
        var value = zero
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    private mutating func isArray(of element: Int32) -> Bool {
        !atEnd && dbus_message_iter_get_arg_type(&iter) == TypeCode.array
            && dbus_message_iter_get_element_type(&iter) == element
    }

    private mutating func advance() {
        atEnd = dbus_message_iter_next(&iter) == 0
    }

    private static func string(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }
}
