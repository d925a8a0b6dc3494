import CGtk

/// GTK signals with Swift closures: the closure is boxed, handed to GLib as user data and
/// released by GLib when the handler goes (the widget is destroyed).
enum GtkSignals {
    private final class Box {
        let body: (UnsafeMutableRawPointer?) -> Bool
        init(_ body: @escaping (UnsafeMutableRawPointer?) -> Bool) { self.body = body }
    }

    private static let release: GClosureNotify = { data, _ in
        Unmanaged<Box>.fromOpaque(data!).release()
    }

    /// A signal without arguments: clicked, activate.
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping () -> Void) {
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            _ = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().body(nil)
        }
        let box = Unmanaged.passRetained(Box { _ in body(); return true }).toOpaque()
        g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box, release, GConnectFlags(0))
    }

    /// An event signal: the closure gets the GdkEvent and returns whether it handled it.
    static func connectEvent(_ instance: UnsafeMutableRawPointer, _ signal: String,
                             _ body: @escaping (UnsafeMutablePointer<GdkEvent>) -> Bool) {
        let handler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
            Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().body(event) ? 1 : 0
        }
        let box = Unmanaged.passRetained(Box { event in
            body(event!.assumingMemoryBound(to: GdkEvent.self))
        }).toOpaque()
        g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), box, release, GConnectFlags(0))
    }
}

extension GtkSignals {
    /// A signal whose one argument is a pointer (draw's cairo_t, row-activated's row); the
    /// closure returns what the handler returns.
    static func connectPointer(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ body: @escaping (UnsafeMutableRawPointer) -> Bool) {
        connectEvent(instance, signal) { body(UnsafeMutableRawPointer($0)) }
    }
}

/// GTK's C casts (GTK_WINDOW(widget) and friends) as a method.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    func cast<T>(_: T.Type = T.self) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: T.self)
    }

    var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }

    func addClass(_ name: String) {
        gtk_style_context_add_class(gtk_widget_get_style_context(self), name)
    }
}
