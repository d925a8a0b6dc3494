import ChimeCore

/// Notify's hints where they lie in the message: `ArgumentReader.hints()` noted where the value
/// of each name Chime reads is, and a value is read only when asked for. Before, every hint
/// became a key String and a BusValue in an array, whose keys a second pass matched against the
/// names (about 3,000 instructions for three hints).
public struct WireHints: HintSource {
    /// Reads the values; it keeps the message's bytes alive.
    private let reader: ArgumentReader
    /// For each name, where its last value's variant starts in the message.
    var slots = HintSlots()

    init(_ reader: ArgumentReader) { self.reader = reader }

    public var present: UInt64 { slots.present }
    public func value(_ name: HintName) -> BusValue { reader.variant(at: slots.position(name)) }
}
