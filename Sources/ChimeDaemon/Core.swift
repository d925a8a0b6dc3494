import ChimeCore

/// The core's state as chimed's parts reach it: they read `attention`, run its operations, and
/// hand what those return to `apply`, which records, signals and settles it (`Daemon`).
protocol Core: AnyObject {
    var attention: Attention { get set }
    /// The clocks, read once per call.
    var now: Now { get }
    /// `wall`: the store's timestamp, unix milliseconds.
    func apply(_ events: [ServerEvent], wall: Int64)
}

extension Core {
    func apply(_ events: [ServerEvent]) { apply(events, wall: LocalClock.wallMilliseconds()) }
}
