import CDBus
import CShims
import ChimeCore
import Glibc

/// Appends BusValues to a message; each value carries its own signature.
enum MessageWriter {
    /// `descriptors`: what `.unixFD(n)` values send, the n-th of them (a duplicate goes).
    static func append(_ values: [BusValue], to message: OpaquePointer, descriptors: [Int32] = []) {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values { append(value, to: &iter, descriptors: descriptors) }
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ type: Int32, _ value: T) {
        var copy = value
        dbus_message_iter_append_basic(&iter, type, &copy)
    }

    private static func string(_ iter: inout DBusMessageIter, _ type: Int32, _ value: String) {
        value.withCString { pointer in
            var cString: UnsafePointer<CChar>? = pointer
            _ = dbus_message_iter_append_basic(&iter, type, &cString)
        }
    }

    private static func container(_ iter: inout DBusMessageIter, _ type: Int32, _ signature: String?,
                                  _ body: (inout DBusMessageIter) -> Void) {
        var inner = DBusMessageIter()
        if let signature {
            signature.withCString { _ = dbus_message_iter_open_container(&iter, type, $0, &inner) }
        } else {
            dbus_message_iter_open_container(&iter, type, nil, &inner)
        }
        body(&inner)
        dbus_message_iter_close_container(&iter, &inner)
    }

    static func append(_ value: BusValue, to iter: inout DBusMessageIter, descriptors: [Int32] = []) {
        switch value {
        case .byte(let v): basic(&iter, TypeCode.byte, v)
        case .bool(let v): chime_iter_append_bool(&iter, v ? 1 : 0)
        case .int16(let v): basic(&iter, TypeCode.int16, v)
        case .uint16(let v): basic(&iter, TypeCode.uint16, v)
        case .int32(let v): basic(&iter, TypeCode.int32, v)
        case .uint32(let v): basic(&iter, TypeCode.uint32, v)
        case .int64(let v): basic(&iter, TypeCode.int64, v)
        case .uint64(let v): basic(&iter, TypeCode.uint64, v)
        case .double(let v): basic(&iter, TypeCode.double, v)
        case .string(let v): string(&iter, TypeCode.string, v)
        case .objectPath(let v): string(&iter, TypeCode.objectPath, v)
        case .signature(let v): string(&iter, TypeCode.signature, v)
        case .bytes(let bytes):
            container(&iter, TypeCode.array, "y") { inner in
                bytes.withUnsafeBufferPointer { buffer in
                    var pointer = buffer.baseAddress
                    _ = dbus_message_iter_append_fixed_array(&inner, TypeCode.byte, &pointer, Int32(buffer.count))
                }
            }
        case .array(let element, let items):
            container(&iter, TypeCode.array, element) { inner in
                for item in items { append(item, to: &inner, descriptors: descriptors) }
            }
        case .dictionary(let key, let valueSignature, let entries):
            container(&iter, TypeCode.array, "{" + key + valueSignature + "}") { inner in
                for entry in entries {
                    container(&inner, TypeCode.dictEntry, nil) { pair in
                        append(entry.key, to: &pair, descriptors: descriptors)
                        append(entry.value, to: &pair, descriptors: descriptors)
                    }
                }
            }
        case .structure(let fields):
            container(&iter, TypeCode.structure, nil) { inner in
                for field in fields { append(field, to: &inner, descriptors: descriptors) }
            }
        case .variant(let inner):
            container(&iter, TypeCode.variant, inner.signature) { nested in
                append(inner, to: &nested, descriptors: descriptors)
            }
        case .unixFD(let index) where Int(index) < descriptors.count:
            basic(&iter, TypeCode.unixFD, descriptors[Int(index)])
        case .unixFD:
            // chimed passes no descriptor on: a value read from a call (an index into that call's
            // descriptors) is written as /dev/null, so the message stays well formed.
            let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
            basic(&iter, TypeCode.unixFD, null)
            close(null)
        }
    }
}
