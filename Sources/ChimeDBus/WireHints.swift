import ChimeCore

/// Notify's hints where they lie in the message: `ArgumentReader.hints()` noted where the value
/// of each name Chime reads is, and a value is read only when asked for. Before, every hint
/// became a key String and a BusValue in an array, whose keys a second pass matched against the
/// names (about 3,000 instructions for three hints).
public struct WireHints: HintSource {
    /// Reads the values; it keeps the message's bytes alive.
    private let reader: ArgumentReader
    /// For each name, where its last value's variant starts.
    private var slots = SIMD32<Int32>(repeating: -1)
    public private(set) var present: UInt32 = 0

    init(_ reader: ArgumentReader) { self.reader = reader }

    mutating func note(_ name: HintName, at position: Int) {
        slots[name.rawValue] = Int32(truncatingIfNeeded: position)
        present |= 1 << name.rawValue
    }

    public func value(_ name: HintName) -> BusValue { reader.variant(at: Int(slots[name.rawValue])) }
}
