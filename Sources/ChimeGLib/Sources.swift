import CGLib
import CShims

/// GLib event sources whose callbacks are Swift closures. Each source owns a retained
/// box that GLib releases through the destroy notify when the source goes away.
/// Everything here runs on the thread of the default main context.
public enum GLibSources {
    /// Calls `body` after `milliseconds`, then again while it returns true.
    @discardableResult
    public static func timeout(milliseconds: UInt32, _ body: @escaping () -> Bool) -> UInt32 {
        g_timeout_add_full(G_PRIORITY_DEFAULT, guint(milliseconds), trampoline, box(body), release)
    }

    /// For work that may wait behind everything else, such as pruning old history.
    public static let lowPriority = G_PRIORITY_LOW

    /// Calls `body` when the loop is idle, again while it returns true.
    @discardableResult
    public static func idle(priority: Int32 = G_PRIORITY_DEFAULT, _ body: @escaping () -> Bool) -> UInt32 {
        g_idle_add_full(priority, trampoline, box(body), release)
    }

    /// Calls `body` on the loop when the process receives `signal` (SIGTERM, SIGINT, SIGHUP).
    @discardableResult
    public static func unixSignal(_ signal: Int32, _ body: @escaping () -> Bool) -> UInt32 {
        g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, trampoline, box(body), release)
    }

    /// Calls `body` whenever `descriptor` can be read, while it returns true.
    @discardableResult
    public static func readable(_ descriptor: Int32, _ body: @escaping () -> Bool) -> UInt32 {
        g_unix_fd_add_full(G_PRIORITY_DEFAULT, descriptor, G_IO_IN, { _, _, data in
            Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue().body() ? chime_source_continue() : chime_source_remove()
        }, box(body), release)
    }

    public static func remove(_ id: UInt32) {
        g_source_remove(id)
    }

    /// Milliseconds on GLib's monotonic clock.
    public static func monotonicMilliseconds() -> Int64 {
        Int64(g_get_monotonic_time()) / 1000
    }

    private final class Callback {
        let body: () -> Bool
        init(_ body: @escaping () -> Bool) { self.body = body }
    }

    private static func box(_ body: @escaping () -> Bool) -> gpointer {
        Unmanaged.passRetained(Callback(body)).toOpaque()
    }

    private static let trampoline: GSourceFunc = { data in
        Unmanaged<Callback>.fromOpaque(data!).takeUnretainedValue().body()
            ? chime_source_continue() : chime_source_remove()
    }

    private static let release: GDestroyNotify = { data in
        Unmanaged<Callback>.fromOpaque(data!).release()
    }
}

/// A GMainLoop on the default context.
public final class MainLoop {
    private let loop: OpaquePointer

    public init() { loop = g_main_loop_new(nil, 0) }
    deinit { g_main_loop_unref(loop) }

    public func run() { g_main_loop_run(loop) }
    public func quit() { g_main_loop_quit(loop) }
}

/// One timer re-armed to a single deadline: the daemon keeps one for all expiries
/// instead of one GLib source per notification.
public final class DeadlineTimer {
    private var source: UInt32?
    private var armedFor: Int64?
    private let fire: () -> Void

    public init(fire: @escaping () -> Void) { self.fire = fire }
    deinit { cancel() }

    /// Arms the timer for `deadline` (monotonic ms), or disarms it when nil.
    public func arm(at deadline: Int64?) {
        guard deadline != armedFor else { return }
        cancel()
        guard let deadline else { return }
        armedFor = deadline
        let delay = max(0, deadline - GLibSources.monotonicMilliseconds())
        source = GLibSources.timeout(milliseconds: UInt32(clamping: delay)) { [weak self] in
            self?.source = nil
            self?.armedFor = nil
            self?.fire()
            return false
        }
    }

    public func cancel() {
        if let source { GLibSources.remove(source) }
        source = nil
        armedFor = nil
    }
}
