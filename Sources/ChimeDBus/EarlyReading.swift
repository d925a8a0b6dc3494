import ChimeCore

/// What a method's early part, run on the bus thread as the call arrives, makes of it: a call
/// it refuses is answered there with the error; what it read goes with the call to the main
/// handler (`MethodCall.carried`), which answers it.
public enum EarlyReading: Sendable {
    case refused(BusError)
    case read(any Sendable)
}
