/// What `NotificationHints` decodes: the hints an app sent, with each name Chime reads found
/// once. The daemon reads them where they lie in the message (ChimeDBus's `WireHints`); tests
/// and the dictionary form give pairs (`HintPairs`).
public protocol HintSource {
    /// A bit for each name the app sent, at the name's raw value: most of the names asked for
    /// are absent, and are answered by this alone.
    var present: UInt64 { get }
    /// The value sent under `name`, the last one when the name repeats. Asked only for a name
    /// that is present.
    func value(_ name: HintName) -> BusValue
}

/// Where the value of each name Chime reads is, in whatever the source counts positions by:
/// a vector on the stack, not an array on the heap, and a bit for each name present.
public struct HintSlots: Sendable {
    private var positions = SIMD64<Int32>(repeating: -1)
    public private(set) var present: UInt64 = 0

    public init() {}

    /// The value of `name` is at `position`; a later one of the same name replaces it.
    public mutating func note(_ name: HintName, at position: Int) {
        positions[name.rawValue] = Int32(truncatingIfNeeded: position)
        present |= 1 << name.rawValue
    }

    public func position(_ name: HintName) -> Int { Int(positions[name.rawValue]) }
}

/// Hints as pairs of key and value, each key matched against the names once.
struct HintPairs: HintSource {
    private let raw: [(key: String, value: BusValue)]
    private var slots = HintSlots()

    init(_ raw: [(key: String, value: BusValue)]) {
        self.raw = raw
        for (index, pair) in raw.enumerated() {
            if let name = HintName(pair.key) { slots.note(name, at: index) }
        }
    }

    var present: UInt64 { slots.present }
    func value(_ name: HintName) -> BusValue { raw[slots.position(name)].value }
}
