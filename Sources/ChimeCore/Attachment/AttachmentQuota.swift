/// Each app's share of the attachment store: what to evict, oldest first, so a new file fits.
public enum AttachmentQuota {
    public static let defaultBytes: Int64 = 100 * 1024 * 1024
    /// The whole store's, every app's files together: an app that sends under many names (or
    /// many apps) cannot fill the disk; no app's files go to make room for another's.
    public static let storeBytes: Int64 = 512 * 1024 * 1024

    /// A file the app already has in the store.
    public struct Stored: Equatable, Sendable {
        public var path: String
        public var bytes: Int64
        /// When it was stored (any clock, compared only with each other).
        public var stored: Int64

        public init(path: String, bytes: Int64, stored: Int64) {
            self.path = path
            self.bytes = bytes
            self.stored = stored
        }
    }

    /// The files to delete, oldest first, so that `adding` more bytes fit within `quota`; nil
    /// when the new file alone is over it.
    public static func evictions(from stored: [Stored], adding: Int64, quota: Int64) -> [String]? {
        guard adding <= quota else { return nil }
        var total = stored.reduce(0) { $0 + $1.bytes } + adding
        var evicted: [String] = []
        for file in stored.sorted(by: { ($0.stored, $0.path) < ($1.stored, $1.path) }) where total > quota {
            evicted.append(file.path)
            total -= file.bytes
        }
        return evicted
    }
}
