import CCanberra
import CGLib
import ChimeCore

/// Plays notification sounds through libcanberra on a thread of its own, so whoever asks is
/// never blocked by audio: a hung sound server stalls only this thread (libcanberra blocks up to
/// 30 s), and what piles up meanwhile collapses into one sound. Runs in `chime-sound`.
///
/// `@unchecked Sendable`: the ca_context is touched only on the player thread; the queues
/// between threads are GLib's GAsyncQueue, which is thread-safe.
public final class SoundPlayer: @unchecked Sendable {
    private let queue: OpaquePointer
    /// One entry for each sound that ended, however it ended: what `finish` counts.
    private let endings: OpaquePointer
    /// Sounds started on the player thread; its own.
    private var started = 0
    private var context: OpaquePointer?
    private var nextID: UInt32 = 0
    private let report: @Sendable (String) -> Void

    /// `report` receives one line per sound played or failed, from the player thread.
    public init(report: @escaping @Sendable (String) -> Void) {
        queue = g_async_queue_new()
        endings = g_async_queue_new()
        self.report = report
        let me = Unmanaged.passRetained(self).toOpaque()
        let thread = g_thread_new("chime-sound", { data in
            Unmanaged<SoundPlayer>.fromOpaque(data!).takeUnretainedValue().serve()
            return nil
        }, me)
        g_thread_unref(thread)
    }

    /// Queues a sound; never blocks.
    public func play(_ request: SoundRequest) {
        g_async_queue_push(queue, Unmanaged.passRetained(Box(request)).toOpaque())
    }

    /// Waits until what was queued has played to its end, for at most `seconds`: before the
    /// process leaves (the queue it waits on is kept, as the player thread may answer late).
    public func finish(within seconds: Double) {
        let finished = g_async_queue_new()!
        g_async_queue_push(queue, Unmanaged.passRetained(Box(nil, finished: finished)).toOpaque())
        if let answer = g_async_queue_timeout_pop(finished, guint64(seconds * 1_000_000)) {
            Unmanaged<Box>.fromOpaque(answer).release()
        }
    }

    private final class Box {
        let request: SoundRequest?
        /// For `finish`: told once all sounds started before it ended.
        let finished: OpaquePointer?
        init(_ request: SoundRequest?, finished: OpaquePointer? = nil) {
            self.request = request
            self.finished = finished
        }
    }

    private func serve() {
        while true {
            let box = Unmanaged<Box>.fromOpaque(g_async_queue_pop(queue)!).takeRetainedValue()
            guard var request = box.request else {
                awaitEndings()
                g_async_queue_push(box.finished, Unmanaged.passRetained(box).toOpaque())
                continue
            }
            // What queued up while the server hung plays as one sound: the most urgent, latest.
            while let more = g_async_queue_try_pop(queue) {
                let next = Unmanaged<Box>.fromOpaque(more).takeRetainedValue()
                guard let nextRequest = next.request else {
                    // A finish waits for this sound too.
                    g_async_queue_push_front(queue, Unmanaged.passRetained(next).toOpaque())
                    break
                }
                if nextRequest.choice.level >= request.choice.level { request = nextRequest }
            }
            perform(request)
        }
    }

    /// Every sound started has ended (its callback came).
    private func awaitEndings() {
        while started > 0, g_async_queue_pop(endings) != nil { started -= 1 }
    }

    private func perform(_ request: SoundRequest) {
        let choice = request.choice
        var attempts: [(key: String, value: String)] = []
        if let file = choice.file { attempts.append((CA_PROP_MEDIA_FILENAME, file)) }
        if let event = choice.event { attempts.append((CA_PROP_EVENT_ID, event)) }
        if let fallback = choice.fallback, fallback != choice.event { attempts.append((CA_PROP_EVENT_ID, fallback)) }
        for attempt in attempts {
            let result = start(request, attempt)
            if result == Int32(CA_SUCCESS) { return }
            if result != Int32(CA_ERROR_NOTFOUND) && result != Int32(CA_ERROR_CORRUPT)
                && result != Int32(CA_ERROR_NOTSUPPORTED) && result != Int32(CA_ERROR_IO) { break }
        }
    }

    /// Starts one sound; recreates the context once when the server went away since it was opened.
    private func start(_ request: SoundRequest, _ source: (key: String, value: String)) -> Int32 {
        for _ in 0..<2 {
            guard let context = openContext() else { return Int32(CA_ERROR_NOTAVAILABLE) }
            var properties: OpaquePointer?
            ca_proplist_create(&properties)
            defer { ca_proplist_destroy(properties) }
            ca_proplist_sets(properties, source.key, source.value)
            ca_proplist_sets(properties, CA_PROP_CANBERRA_XDG_THEME_NAME, request.theme)
            ca_proplist_sets(properties, CA_PROP_CANBERRA_VOLUME, String(request.volume))
            ca_proplist_sets(properties, CA_PROP_CANBERRA_CACHE_CONTROL, "volatile")
            ca_proplist_sets(properties, CA_PROP_APPLICATION_ID, request.application)
            ca_proplist_sets(properties, CA_PROP_EVENT_DESCRIPTION, "notification")
            nextID &+= 1
            let described = "\(source.key == CA_PROP_MEDIA_FILENAME ? "file" : "event") \(source.value)"
            let box = Unmanaged.passRetained(Finished(report: report, what: described, endings: endings)).toOpaque()
            let result = ca_context_play_full(context, nextID, properties, { _, _, error, data in
                let finished = Unmanaged<Finished>.fromOpaque(data!).takeRetainedValue()
                finished.report(error == Int32(CA_SUCCESS) ? "sound finished: \(finished.what)"
                                                             : "sound stopped: \(finished.what): \(String(cString: ca_strerror(error)))")
                g_async_queue_push(finished.endings, UnsafeMutableRawPointer(finished.endings))
            }, box)
            if result == Int32(CA_SUCCESS) {
                started += 1
                report("sound started: \(described)")
                return result
            }
            Unmanaged<Finished>.fromOpaque(box).release()
            report("sound failed: \(described): \(String(cString: ca_strerror(result)))")
            guard result == Int32(CA_ERROR_STATE) || result == Int32(CA_ERROR_DISCONNECTED) else { return result }
            ca_context_destroy(context)
            self.context = nil
        }
        return Int32(CA_ERROR_STATE)
    }

    /// Opened lazily, so chimed starts fast and works with no sound server at all.
    private func openContext() -> OpaquePointer? {
        if let context { return context }
        var created: OpaquePointer?
        guard ca_context_create(&created) == Int32(CA_SUCCESS), let created else { return nil }
        let result = ca_context_open(created)
        guard result == Int32(CA_SUCCESS) else {
            report("sound unavailable: \(String(cString: ca_strerror(result)))")
            ca_context_destroy(created)
            return nil
        }
        context = created
        return created
    }

    private final class Finished {
        let report: @Sendable (String) -> Void
        let what: String
        let endings: OpaquePointer
        init(report: @escaping @Sendable (String) -> Void, what: String, endings: OpaquePointer) {
            self.report = report
            self.what = what
            self.endings = endings
        }
    }
}
