import CDBus
import CGLib
import CShims
import Glibc
import Synchronization

/// Reads and writes a connection's socket on a thread of its own, so a call can be answered
/// there while the main thread does the work the answer does not wait for.
///
/// libdbus is thread-safe; what this thread owns is the connection's I/O and dispatch: only it
/// polls the socket, reads, and runs the filter. Other threads send: libdbus writes at once when
/// it can and otherwise wakes this thread (the wakeup function), which then writes. Watches and
/// timeouts may be toggled from any thread, so they sit behind a lock and a toggle wakes the
/// poll.
final class BusThread: @unchecked Sendable {
    private let connection: OpaquePointer
    /// Written to wake the poll: a send left queued, a watch toggled, the main thread made room.
    private let wakeDescriptor: Int32
    private let io = Mutex(IO())
    /// Runs on this thread after each wake: takes the messages libdbus holds and hands them on.
    /// True while its queue is full: then the socket is not read until the main thread makes room.
    private let serve: () -> Bool

    /// The watches and timeouts libdbus asked for. Their pointers stay valid until libdbus
    /// removes them, which it does when the connection closes: on this thread, or after it ended.
    private struct IO: @unchecked Sendable {
        var watches: [OpaquePointer] = []
        var timeouts: [(timeout: OpaquePointer, deadline: Int64)] = []
        var stopping = false
    }

    init(connection: OpaquePointer, serve: @escaping () -> Bool) {
        self.connection = connection
        self.serve = serve
        wakeDescriptor = chime_eventfd()
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, { watch, data in
            BusThread.from(data).changed { $0.watches.append(watch!) }
            return 1
        }, { watch, data in
            BusThread.from(data).changed { $0.watches.removeAll { $0 == watch } }
        }, { _, data in
            BusThread.from(data).changed { _ in }
        }, me, nil)
        dbus_connection_set_timeout_functions(connection, { timeout, data in
            let deadline = BusThread.milliseconds() + Int64(dbus_timeout_get_interval(timeout))
            BusThread.from(data).changed { $0.timeouts.append((timeout!, deadline)) }
            return 1
        }, { timeout, data in
            BusThread.from(data).changed { $0.timeouts.removeAll { $0.timeout == timeout } }
        }, { timeout, data in
            let deadline = BusThread.milliseconds() + Int64(dbus_timeout_get_interval(timeout))
            BusThread.from(data).changed { io in
                if let index = io.timeouts.firstIndex(where: { $0.timeout == timeout }) { io.timeouts[index].deadline = deadline }
            }
        }, me, nil)
        dbus_connection_set_wakeup_main_function(connection, { data in BusThread.from(data).wake() }, me, nil)
        dbus_connection_set_dispatch_status_function(connection, { _, status, data in
            if status == DBUS_DISPATCH_DATA_REMAINS { BusThread.from(data).wake() }
        }, me, nil)
    }

    deinit {
        close(wakeDescriptor)
        close(caughtUpDescriptor)
    }

    /// Catch-up requests the main thread made, and the last one this thread answered.
    private let catchUpsAsked = Atomic(0)
    private let catchUpsDone = Atomic(0)
    /// Written when this thread answered a catch-up.
    private let caughtUpDescriptor = chime_eventfd()

    /// On the main thread: waits, at most `timeoutMilliseconds`, until this thread has read what
    /// the socket holds now and handed it on (as far as the main thread's inbox has room).
    /// Returns at once when the thread does not run.
    func catchUp(timeoutMilliseconds: Int64) {
        guard thread != nil else { return }
        let ticket = catchUpsAsked.add(1, ordering: .sequentiallyConsistent).newValue
        wake()
        let deadline = Self.milliseconds() + timeoutMilliseconds
        while catchUpsDone.load(ordering: .sequentiallyConsistent) < ticket {
            let left = deadline - Self.milliseconds()
            guard left > 0 else { return }
            var entry = pollfd(fd: caughtUpDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, Int32(left)) > 0 {
                var count: UInt64 = 0
                _ = read(caughtUpDescriptor, &count, 8)
            }
        }
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> BusThread {
        Unmanaged<BusThread>.fromOpaque(data!).takeUnretainedValue()
    }

    private func changed(_ change: (inout IO) -> Void) {
        io.withLock { change(&$0) }
        wake()
    }

    private var thread: UnsafeMutablePointer<GThread>?

    /// Starts the thread; it runs until `stop`.
    func start() {
        thread = g_thread_new("chime-bus", { data in
            Unmanaged<BusThread>.fromOpaque(data!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
    }

    /// Ends the thread after its current turn and waits for it: the connection may close then.
    func stop() {
        guard let thread else { return }
        io.withLock { $0.stopping = true }
        wake()
        g_thread_join(thread)
        self.thread = nil
        // libdbus must not call back into this object once it is gone; the connection's owner
        // then makes its blocking calls (releasing names, flushing) without a loop.
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(connection, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    private func run() {
        var backlog = false
        while true {
            // Asked before this turn's poll: answered once the turn read the socket and handed on.
            let catchUps = catchUpsAsked.load(ordering: .sequentiallyConsistent)
            var descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            var polled: [OpaquePointer] = []
            var wait: Int32 = -1
            let current = io.withLock { $0 }
            for watch in current.watches where dbus_watch_get_enabled(watch) != 0 {
                let flags = dbus_watch_get_flags(watch)
                var events: Int16 = 0
                // With the fair queue full, read no further: what comes waits in the socket,
                // and the bus holds the sender back.
                if flags & DBUS_WATCH_READABLE.rawValue != 0, !backlog { events |= Int16(POLLIN) }
                if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
                guard events != 0 else { continue }
                descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
                polled.append(watch)
            }
            let before = Self.milliseconds()
            for entry in current.timeouts where dbus_timeout_get_enabled(entry.timeout) != 0 {
                let left = Int32(clamping: max(0, entry.deadline - before))
                wait = wait < 0 ? left : min(wait, left)
            }
            // A catch-up asked while the last turn ran (its wakeup already read) is answered by
            // this turn: it reads what the socket holds now without waiting for more.
            if catchUps > catchUpsDone.load(ordering: .sequentiallyConsistent) { wait = 0 }
            let stopping = current.stopping
            if stopping { return }
            _ = poll(&descriptors, nfds_t(descriptors.count), wait)
            if descriptors[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, 8)
            }
            for (index, watch) in polled.enumerated() where descriptors[index + 1].revents != 0 {
                // Handling one watch may free another: on a hangup libdbus disconnects and removes
                // both the read and the write watch of the socket (`changed`, on this thread).
                guard io.withLock({ $0.watches.contains(watch) }) else { continue }
                let revents = Int32(descriptors[index + 1].revents)
                var flags: UInt32 = 0
                if revents & Int32(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
                if revents & Int32(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
                if revents & Int32(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
                if revents & Int32(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
                dbus_watch_handle(watch, flags)
            }
            let now = Self.milliseconds()
            // libdbus's timeouts repeat every interval until removed.
            let due = io.withLock { io in
                var due: [OpaquePointer] = []
                for index in io.timeouts.indices where io.timeouts[index].deadline <= now {
                    let timeout = io.timeouts[index].timeout
                    guard dbus_timeout_get_enabled(timeout) != 0 else { continue }
                    due.append(timeout)
                    io.timeouts[index].deadline = now + Int64(dbus_timeout_get_interval(timeout))
                }
                return IO(watches: due)
            }.watches
            for timeout in due { dbus_timeout_handle(timeout) }
            backlog = serve()
            if catchUps > catchUpsDone.load(ordering: .sequentiallyConsistent) {
                catchUpsDone.store(catchUps, ordering: .sequentiallyConsistent)
                var one: UInt64 = 1
                _ = write(caughtUpDescriptor, &one, 8)
            }
        }
    }

    static func milliseconds() -> Int64 { Int64(g_get_monotonic_time()) / 1000 }
}
