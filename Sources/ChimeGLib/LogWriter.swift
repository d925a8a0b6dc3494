import CGLib
import Glibc
import Synchronization

/// Writes the log's lines to stderr on a thread of its own, in order. A pipe nobody empties (a
/// journal that falls behind, a terminal paused with Ctrl-S, a parent that never reads) then
/// blocks that thread, never the bus: past `capacity` lines waiting, new ones are dropped and
/// counted, and the count is said once the writing goes on.
/// `@unchecked Sendable`: its one C handle is a GAsyncQueue, which GLib locks itself.
final class LogWriter: @unchecked Sendable {
    static let capacity = 1_000

    private final class Line {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// A GAsyncQueue of retained `Line`s; GLib makes it safe to push and pop from any thread.
    private let queue: OpaquePointer
    private let waiting = Atomic(0)
    private let dropped = Atomic(0)

    init() {
        queue = g_async_queue_new()
        g_thread_unref(g_thread_new("chime-log", { data in
            Unmanaged<LogWriter>.fromOpaque(data!).takeUnretainedValue().run()
            return nil
        }, Unmanaged.passRetained(self).toOpaque()))
    }

    func write(_ text: String) {
        guard waiting.add(1, ordering: .relaxed).newValue <= Self.capacity else {
            waiting.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        g_async_queue_push(queue, Unmanaged.passRetained(Line(text)).toOpaque())
    }

    /// Waits, at most `milliseconds`, until every line waiting was written: before chimed exits.
    func flush(milliseconds: Int = 2_000) {
        for _ in 0..<milliseconds where waiting.load(ordering: .relaxed) > 0 { g_usleep(1_000) }
    }

    private func run() {
        while true {
            let line = Unmanaged<Line>.fromOpaque(g_async_queue_pop(queue)!).takeRetainedValue()
            let lost = dropped.exchange(0, ordering: .relaxed)
            if lost > 0 { Self.put("chimed: warning: \(lost) log line(s) dropped: stderr was not taking them\n") }
            Self.put(line.text)
            waiting.subtract(1, ordering: .relaxed)
        }
    }

    /// One write(2) a line, so lines never interleave with another process's.
    private static func put(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
