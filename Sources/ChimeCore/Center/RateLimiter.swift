/// A token bucket per app: each notification takes a token; tokens come back at a steady
/// rate up to the burst size. An app with no token left is over its limit.
public struct RateLimiter: Sendable {
    private struct Bucket: Sendable {
        var tokens: Double
        var refilled: Instant
        /// Over the limit since its last admitted notification.
        var limited = false
    }

    public enum Admission: Equatable, Sendable {
        case admitted
        /// Over the limit; `newly` for the first notification over it since one was admitted.
        case limited(newly: Bool)
    }

    private var buckets: [String: Bucket] = [:]

    public init() {}

    /// Apps with a bucket now.
    var tracked: Int { buckets.count }

    /// Takes a token for `app`. The bucket also says whether the app was already over its limit.
    public mutating func admit(_ app: String, at now: Instant, limit: CenterSettings.RateLimit) -> Admission {
        let capacity = Double(max(1, limit.burst))
        if buckets.count >= 4_096, buckets[app] == nil { forgetFull(now: now, limit: limit) }
        return Self.take(from: &buckets[app, default: Bucket(tokens: capacity, refilled: now)], at: now,
                         capacity: capacity, perMinute: limit.perMinute)
    }

    private static func take(from bucket: inout Bucket, at now: Instant, capacity: Double, perMinute: Int) -> Admission {
        let elapsed = Double(now.milliseconds - bucket.refilled.milliseconds) / 60_000
        bucket.tokens = min(capacity, bucket.tokens + elapsed * Double(max(0, perMinute)))
        bucket.refilled = now
        guard bucket.tokens >= 1 else {
            defer { bucket.limited = true }
            return .limited(newly: !bucket.limited)
        }
        bucket.tokens -= 1
        bucket.limited = false
        return .admitted
    }

    /// Apps whose buckets have refilled are the same as unseen ones: drop them so the
    /// table stays as small as the set of apps sending right now.
    private mutating func forgetFull(now: Instant, limit: CenterSettings.RateLimit) {
        let refillMilliseconds = limit.perMinute > 0 ? Int64(limit.burst) * 60_000 / Int64(limit.perMinute) : Int64.max
        buckets = buckets.filter { now.milliseconds - $0.value.refilled.milliseconds < refillMilliseconds }
    }
}
