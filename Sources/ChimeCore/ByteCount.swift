/// Sizes as the config and chimectl write them: `100MB`, `512K`, `1G` (powers of 1024), or bytes.
public enum ByteCount {
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.uppercased().filter { $0 != " " }
        let units: [(String, Int64)] = [("GB", 1 << 30), ("G", 1 << 30), ("MB", 1 << 20), ("M", 1 << 20), ("KB", 1 << 10), ("K", 1 << 10), ("B", 1)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let number = Int64(trimmed.dropLast(suffix.count)), number >= 0, number <= Int64.max / scale else { return nil }
            return number * scale
        }
        guard let number = Int64(trimmed), number >= 0 else { return nil }
        return number
    }

    /// The form `parse` reads back exactly: `100MB`, `1536K`, `1000`.
    public static func exactText(_ bytes: Int64) -> String {
        for (unit, scale) in [("GB", Int64(1) << 30), ("MB", 1 << 20), ("KB", 1 << 10)] where bytes > 0 && bytes % scale == 0 {
            return "\(bytes / scale)\(unit)"
        }
        return String(bytes)
    }

    /// `12 MB`, `1.5 MB`, `800 KB`, `12 bytes`: one decimal at most.
    public static func text(_ bytes: Int64) -> String {
        for (unit, scale) in [("GB", Int64(1) << 30), ("MB", 1 << 20), ("KB", 1 << 10)] where bytes >= scale {
            let tenths = (bytes * 10 + scale / 2) / scale
            return tenths % 10 == 0 ? "\(tenths / 10) \(unit)" : "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        return "\(bytes) bytes"
    }
}
