import CDBus
import Glibc
import ChimeCore

/// A D-Bus message with one owner: it holds a reference and drops it in deinit.
public final class Message {
    let raw: OpaquePointer

    /// Takes over a reference the caller already owns.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to a message libdbus lends us (in a filter).
    init(borrowing raw: OpaquePointer) {
        self.raw = raw
        dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    /// A message read back from its marshalled bytes (a call chimed 0.1.0 kept); nil when they
    /// are not one.
    public convenience init?(marshalled bytes: [UInt8]) {
        var error = DBusError()
        dbus_error_init(&error)
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        dbus_error_free(&error)
        guard let raw else { return nil }
        self.init(owning: raw)
    }

    public static func signal(path: String, interface: String, name: String,
                              arguments: [BusValue], destination: String? = nil) -> Message {
        Message(owning: dbus_message_new_signal(path, interface, name)!).filled(with: arguments, to: destination)
    }

    /// Appends `arguments` and sets the destination, if any.
    private func filled(with arguments: [BusValue], to destination: String?) -> Message {
        if let destination { dbus_message_set_destination(raw, destination) }
        MessageWriter.append(arguments, to: raw)
        return self
    }

    /// `descriptors`: the files `.unixFD(n)` arguments send, the n-th of them.
    public static func methodCall(destination: String, path: String, interface: String, method: String,
                                  arguments: [BusValue], descriptors: [Int32] = []) -> Message {
        let message = Message(owning: dbus_message_new_method_call(destination, path, interface, method)!)
        MessageWriter.append(arguments, to: message.raw, descriptors: descriptors)
        return message
    }

    /// The same call, never starting its destination: an answer only from a service that runs.
    public func withoutAutoStart() -> Message {
        dbus_message_set_auto_start(raw, 0)
        return self
    }

    public func reply(_ arguments: [BusValue]) -> Message {
        let reply = Message(owning: dbus_message_new_method_return(raw)!)
        MessageWriter.append(arguments, to: reply.raw)
        return reply
    }

    public func errorReply(_ error: BusError) -> Message {
        Message(owning: dbus_message_new_error(raw, error.name, error.message)!)
    }

    public enum Kind { case methodCall, methodReturn, error, signal, other }

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .other
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    /// Made once: the fair queue and the object server both ask for every incoming call's sender.
    public private(set) lazy var sender: String? = dbus_message_get_sender(raw).map { String(cString: $0) }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    /// Whether this is a call of `member` at `path` on `interface` with arguments of `signature`,
    /// compared with libdbus's own copies of the header's strings: making each a String first
    /// cost more than the comparing.
    func isCall(path: String, interface: String?, member: String, signature: String) -> Bool {
        func same(_ field: UnsafePointer<CChar>?, _ text: String) -> Bool {
            guard let field else { return false }
            return text.withCString { strcmp(field, $0) == 0 }
        }
        let headerInterface = dbus_message_get_interface(raw)
        guard interface != nil || headerInterface == nil else { return false }
        return same(dbus_message_get_member(raw), member) && same(dbus_message_get_path(raw), path)
            && (interface.map { same(headerInterface, $0) } ?? true)
            && same(dbus_message_get_signature(raw), signature)
    }

    public var arguments: [BusValue] {
        var reader = ArgumentReader(self)
        return reader.all()
    }
}
