import CDBus
import CGLib
import CShims
import ChimeGLib

/// Runs a libdbus connection on the GLib main loop of this thread: one fd source per
/// DBusWatch, one timeout per DBusTimeout, and the connection's work (`serve`) from an idle
/// callback (never from inside libdbus's dispatch-status callback). Single-threaded: no locks.
final class MainLoopGlue {
    private let connection: OpaquePointer
    /// The idle source that serves the connection's waiting messages, while one is scheduled.
    private var dispatchIdle: UInt32?
    /// While a watch is handled: messages its read brings are served right after it, with no
    /// idle source added and removed around them.
    private var handlingWatch = false
    private var arrivedDuringWatch = false
    /// A bounded turn of work, so a flood cannot starve timers and signals; true while more remains.
    private let serve: () -> Bool

    init(connection: OpaquePointer, serve: @escaping () -> Bool) {
        self.connection = connection
        self.serve = serve
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, Self.addWatch, Self.removeWatch, Self.toggleWatch, me, nil)
        dbus_connection_set_timeout_functions(connection, Self.addTimeout, Self.removeTimeout, Self.toggleTimeout, me, nil)
        dbus_connection_set_dispatch_status_function(connection, { _, status, data in
            if status == DBUS_DISPATCH_DATA_REMAINS {
                Unmanaged<MainLoopGlue>.fromOpaque(data!).takeUnretainedValue().dataRemains()
            }
        }, me, nil)
        if dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS { scheduleDispatch() }
    }

    /// Detaches from libdbus before this object goes away.
    func detach() {
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
    }

    private func dataRemains() {
        if handlingWatch { arrivedDuringWatch = true } else { scheduleDispatch() }
    }

    private func scheduleDispatch() {
        guard dispatchIdle == nil else { return }
        dispatchIdle = GLibSources.idle { [self] in
            if serve() { return true }
            dispatchIdle = nil
            return false
        }
    }

    /// Lets libdbus handle a watch (read or write), then serves what a read brought at once
    /// instead of on the loop's next turn, one poll the fewer per message. What a bounded turn
    /// leaves waits for the idle.
    private func handle(_ watch: OpaquePointer, _ flags: UInt32) {
        handlingWatch = true
        dbus_watch_handle(watch, flags)
        handlingWatch = false
        guard arrivedDuringWatch || dispatchIdle != nil else { return }
        arrivedDuringWatch = false
        if serve() { return scheduleDispatch() }
        if let idle = dispatchIdle {
            GLibSources.remove(idle)
            dispatchIdle = nil
        }
    }

    // MARK: Watches: fd sources whose id is kept in the watch's data slot.

    /// An fd source's callback data: the watch to hand events to, and the glue to serve after.
    private final class WatchSource {
        let watch: OpaquePointer
        unowned let glue: MainLoopGlue
        init(_ watch: OpaquePointer, _ glue: MainLoopGlue) { (self.watch, self.glue) = (watch, glue) }
    }

    private static let addWatch: DBusAddWatchFunction = { watch, glue in
        guard let watch, let glue, dbus_watch_get_enabled(watch) != 0 else { return 1 }
        let flags = dbus_watch_get_flags(watch)
        var condition = G_IO_HUP.rawValue | G_IO_ERR.rawValue
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { condition |= G_IO_IN.rawValue }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { condition |= G_IO_OUT.rawValue }
        let source = WatchSource(watch, Unmanaged<MainLoopGlue>.fromOpaque(glue).takeUnretainedValue())
        let id = g_unix_fd_add_full(G_PRIORITY_DEFAULT, dbus_watch_get_unix_fd(watch), GIOCondition(condition), { _, condition, data in
            let source = Unmanaged<WatchSource>.fromOpaque(data!).takeUnretainedValue()
            var flags: UInt32 = 0
            if condition.rawValue & G_IO_IN.rawValue != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
            if condition.rawValue & G_IO_OUT.rawValue != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
            if condition.rawValue & G_IO_HUP.rawValue != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
            if condition.rawValue & G_IO_ERR.rawValue != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
            source.glue.handle(source.watch, flags)
            return chime_source_continue()
        }, Unmanaged.passRetained(source).toOpaque(), { Unmanaged<WatchSource>.fromOpaque($0!).release() })
        // GLib takes a source's fds out of its poll set around each dispatch and puts them back
        // after, waking its own loop twice to say so, unless the source may recurse. Nothing here
        // runs a nested loop, so letting it "recurse" only saves the four syscalls per message.
        g_source_set_can_recurse(g_main_context_find_source_by_id(nil, id), 1)
        dbus_watch_set_data(watch, UnsafeMutableRawPointer(bitPattern: UInt(id)), nil)
        return 1
    }

    private static let removeWatch: DBusRemoveWatchFunction = { watch, _ in
        guard let watch, let data = dbus_watch_get_data(watch) else { return }
        g_source_remove(guint(UInt(bitPattern: data)))
        dbus_watch_set_data(watch, nil, nil)
    }

    private static let toggleWatch: DBusWatchToggledFunction = { watch, data in
        removeWatch(watch, data)
        _ = addWatch(watch, data)
    }

    // MARK: Timeouts: libdbus's own (method-call timeouts), one GLib timeout each.

    private static let addTimeout: DBusAddTimeoutFunction = { timeout, _ in
        guard let timeout, dbus_timeout_get_enabled(timeout) != 0 else { return 1 }
        let id = g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(0, dbus_timeout_get_interval(timeout))), { data in
            dbus_timeout_handle(OpaquePointer(data!))
            return chime_source_continue()
        }, UnsafeMutableRawPointer(timeout), nil)
        dbus_timeout_set_data(timeout, UnsafeMutableRawPointer(bitPattern: UInt(id)), nil)
        return 1
    }

    private static let removeTimeout: DBusRemoveTimeoutFunction = { timeout, _ in
        guard let timeout, let data = dbus_timeout_get_data(timeout) else { return }
        g_source_remove(guint(UInt(bitPattern: data)))
        dbus_timeout_set_data(timeout, nil, nil)
    }

    private static let toggleTimeout: DBusTimeoutToggledFunction = { timeout, data in
        removeTimeout(timeout, data)
        _ = addTimeout(timeout, data)
    }
}
