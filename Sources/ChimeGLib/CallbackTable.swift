/// A C library's table of callbacks (a Wayland listener) that lives as long as the process: the
/// library keeps its address and calls through it for every event. Made once per table and never
/// written again, so the static that holds it may be `nonisolated(unsafe)`.
public func permanentCallbackTable<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
}
