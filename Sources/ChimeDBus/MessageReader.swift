import CDBus
import CShims
import ChimeCore
import Glibc

/// Decodes a message's arguments into BusValues. libdbus has already validated the
/// wire format and UTF-8, so this only maps types.
enum MessageReader {
    static func arguments(of message: OpaquePointer) -> [BusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return readAll(&iter)
    }

    private static func readAll(_ iter: inout DBusMessageIter) -> [BusValue] {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != TypeCode.invalid {
            values.append(read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ zero: T) -> T {
        var value = zero
        dbus_message_iter_get_basic(&iter, &value)
        return value
    }

    static func read(_ iter: inout DBusMessageIter) -> BusValue {
        switch dbus_message_iter_get_arg_type(&iter) {
        case TypeCode.byte: return .byte(basic(&iter, UInt8(0)))
        case TypeCode.boolean: return .bool(chime_iter_get_bool(&iter) != 0)
        case TypeCode.int16: return .int16(basic(&iter, Int16(0)))
        case TypeCode.uint16: return .uint16(basic(&iter, UInt16(0)))
        case TypeCode.int32: return .int32(basic(&iter, Int32(0)))
        case TypeCode.uint32: return .uint32(basic(&iter, UInt32(0)))
        case TypeCode.int64: return .int64(basic(&iter, Int64(0)))
        case TypeCode.uint64: return .uint64(basic(&iter, UInt64(0)))
        case TypeCode.double: return .double(basic(&iter, Double(0)))
        case TypeCode.string: return .string(String(cString: basic(&iter, UnsafePointer<CChar>?.none)!))
        case TypeCode.objectPath: return .objectPath(String(cString: basic(&iter, UnsafePointer<CChar>?.none)!))
        case TypeCode.signature: return .signature(String(cString: basic(&iter, UnsafePointer<CChar>?.none)!))
        case TypeCode.unixFD:
            // Chime takes no file descriptors; close the duplicate libdbus made.
            close(basic(&iter, Int32(-1)))
            return .int32(-1)
        case TypeCode.variant:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return .variant(read(&inner))
        case TypeCode.structure, TypeCode.dictEntry:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return .structure(readAll(&inner))
        case TypeCode.array:
            return readArray(&iter)
        default:
            return .structure([])
        }
    }

    private static func readArray(_ iter: inout DBusMessageIter) -> BusValue {
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &inner)
        if dbus_message_iter_get_element_type(&iter) == TypeCode.byte {
            // A fixed array is read in one copy, however large.
            var pointer: UnsafePointer<UInt8>?
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&inner, &pointer, &count)
            return .bytes(Array(UnsafeBufferPointer(start: pointer, count: Int(count))))
        }
        let signature = elementSignature(of: &iter)
        if signature.hasPrefix("{") {
            let inside = signature.dropFirst().dropLast()
            let keySignature = String(inside.prefix(1))
            let valueSignature = String(inside.dropFirst())
            let entries = readAll(&inner).compactMap { entry -> (key: BusValue, value: BusValue)? in
                guard case .structure(let pair) = entry, pair.count == 2 else { return nil }
                return (pair[0], pair[1])
            }
            return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
        }
        return .array(elementSignature: signature, readAll(&inner))
    }

    private static func elementSignature(of iter: inout DBusMessageIter) -> String {
        guard let signature = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(signature) }
        return String(String(cString: signature).dropFirst())
    }
}
