import Synchronization

/// Which texts a new notification might repeat, for the bus thread: it may answer a Notify before
/// the main thread sees it only when no open notification can be merged with it, since a repeat
/// is answered with the id of the notification it repeats.
///
/// It holds the digests the repeat detector remembers, and those of notifications the bus thread
/// has passed on and the main thread has not yet handled: a call that follows one with the same
/// texts waits for the main thread, which knows. Digests only: a collision sends a notification
/// the slow way, never the wrong way.
public final class RepeatGate: Sendable {
    private struct Digests {
        var remembered: Set<Int> = []
        var passedOn: [Int: Int] = [:]
    }

    private let digests = Mutex(Digests())

    public init() {}

    /// On the bus thread, for each Notify it passes on: whether its texts might repeat an earlier
    /// notification's. Either way it counts as passed on until `handled`.
    public func passOn(_ key: RepeatDetector.Key) -> Bool {
        digests.withLock { digests in
            let mayRepeat = digests.remembered.contains(key.digest) || digests.passedOn[key.digest] != nil
            digests.passedOn[key.digest, default: 0] += 1
            return mayRepeat
        }
    }

    /// On the main thread, once a Notify the bus thread passed on was handled.
    public func handled(_ key: RepeatDetector.Key) {
        digests.withLock { digests in
            if let count = digests.passedOn[key.digest], count > 1 {
                digests.passedOn[key.digest] = count - 1
            } else {
                digests.passedOn[key.digest] = nil
            }
        }
    }

    func remember(_ key: RepeatDetector.Key) { _ = digests.withLock { $0.remembered.insert(key.digest) } }
    func forget(_ key: RepeatDetector.Key) { _ = digests.withLock { $0.remembered.remove(key.digest) } }
}
