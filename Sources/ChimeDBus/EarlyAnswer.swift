import ChimeCore

/// What a method's early part, run on the bus thread as the call arrives, makes of it.
/// A call answered early (`reply` set) is answered before the main thread handles it: the
/// reply must depend only on what the early part can know there.
public struct EarlyAnswer: Sendable {
    /// The reply, sent at once; a failure ends the call there. Nil leaves it to the main handler.
    public var reply: Result<[BusValue], BusError>?
    /// Handed to the main handler as `MethodCall.carried`: what the early part worked out.
    public var carried: (any Sendable)?

    public init(reply: Result<[BusValue], BusError>? = nil, carried: (any Sendable)? = nil) {
        self.reply = reply
        self.carried = carried
    }
}
