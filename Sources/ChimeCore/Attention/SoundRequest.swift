/// One sound to play, as chimed hands it to `chime-sound` down a socket: a record of seven
/// fields, each ended by a NUL byte. No field holds a NUL (paths, D-Bus strings and config values
/// cannot), and one that somehow did loses it rather than the record's shape.
public struct SoundRequest: Equatable, Sendable {
    public var choice: SoundChoice
    /// The XDG sound theme (`[sounds] theme`).
    public var theme: String
    /// Decibels, as libcanberra takes them.
    public var volume: Double
    /// The app it sounds for, for the sound server's per-app volume.
    public var application: String

    public init(choice: SoundChoice, theme: String, volume: Double, application: String) {
        self.choice = choice
        self.theme = theme
        self.volume = volume
        self.application = application
    }

    static let fieldCount = 7

    /// The record's bytes; an absent field is empty.
    public var record: [UInt8] {
        let fields = [choice.file ?? "", choice.event ?? "", choice.fallback ?? "", choice.level.rawValue,
                      theme, String(volume), application]
        return fields.flatMap { Array($0.utf8.filter { $0 != 0 }) + [0] }
    }

    /// Reads records from a byte stream in whatever pieces it comes; skips a record it cannot
    /// read (an unknown level, a volume that is no number) rather than stopping.
    public struct Reader {
        private var partial: [UInt8] = []
        private var fields: [String] = []

        public init() {}

        /// The requests completed by `bytes`.
        public mutating func read(_ bytes: some Sequence<UInt8>) -> [SoundRequest] {
            var requests: [SoundRequest] = []
            for byte in bytes {
                guard byte == 0 else {
                    partial.append(byte)
                    continue
                }
                fields.append(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
                guard fields.count == SoundRequest.fieldCount else { continue }
                if let request = SoundRequest(fields: fields) { requests.append(request) }
                fields.removeAll(keepingCapacity: true)
            }
            return requests
        }
    }

    private init?(fields: [String]) {
        func optional(_ text: String) -> String? { text.isEmpty ? nil : text }
        guard let level = InterruptionLevel(rawValue: fields[3]), let volume = Double(fields[5]) else { return nil }
        self.init(choice: SoundChoice(file: optional(fields[0]), event: optional(fields[1]), fallback: optional(fields[2]), level: level),
                  theme: fields[4], volume: volume, application: fields[6])
    }
}
