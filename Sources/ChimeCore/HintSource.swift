/// What `NotificationHints` decodes: the hints an app sent, with each name Chime reads found
/// once. The daemon reads them where they lie in the message (ChimeDBus's `WireHints`); tests
/// and the dictionary form give pairs (`HintPairs`).
public protocol HintSource {
    /// A bit for each name the app sent, at the name's raw value: most of the names asked for
    /// are absent, and are answered by this alone.
    var present: UInt32 { get }
    /// The value sent under `name`, the last one when the name repeats. Asked only for a name
    /// that is present.
    func value(_ name: HintName) -> BusValue
}

/// Hints as pairs of key and value, matched against the names once; a slot for each name keeps
/// where its last value is. A vector on the stack, not an array on the heap.
struct HintPairs: HintSource {
    private let raw: [(key: String, value: BusValue)]
    private var slots = SIMD32<Int32>(repeating: -1)
    private(set) var present: UInt32 = 0

    init(_ raw: [(key: String, value: BusValue)]) {
        self.raw = raw
        for (index, pair) in raw.enumerated() {
            guard let name = HintName(pair.key) else { continue }
            slots[name.rawValue] = Int32(truncatingIfNeeded: index)
            present |= 1 << name.rawValue
        }
    }

    func value(_ name: HintName) -> BusValue { raw[Int(slots[name.rawValue])].value }
}
