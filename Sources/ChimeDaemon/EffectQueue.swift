import ChimeCore

/// What the core's events mean beyond the center, waiting to be done (`Daemon.settle`): signals,
/// badges, sounds, hooks. During a turn, what leaves chimed for good (a sound, a hook) waits for
/// the turn's commit, so a notification the center could not keep, whose Notify is refused,
/// makes none (`drop`).
struct EffectQueue {
    private var waiting: [ServerEvent] = []
    private var afterCommit: [ServerEvent] = []
    /// Events came (or none, but the timers are to be armed again) since the last `take`.
    private var added = false

    mutating func add(_ events: [ServerEvent]) {
        // Usually nothing waits: take the array rather than copy its events into another.
        if waiting.isEmpty { waiting = events } else { waiting += events }
        added = true
    }

    /// Whether `take` has anything to give now.
    func isDue(inTurn: Bool) -> Bool { added || (!inTurn && !afterCommit.isEmpty) }

    /// The events to handle now, in order: during a turn, all but sounds and hooks, which wait;
    /// after it, those too.
    mutating func take(inTurn: Bool) -> [ServerEvent] {
        var now: [ServerEvent] = []
        if !inTurn {
            now = afterCommit
            afterCommit = []
        }
        for event in waiting {
            if inTurn, Self.leavesChimed(event) != nil { afterCommit.append(event) } else { now.append(event) }
        }
        waiting.removeAll(keepingCapacity: true)
        added = false
        return now
    }

    /// The sounds and hooks of these notifications, whose Notify was refused, do not happen,
    /// whether they wait for the commit or were not taken yet.
    mutating func drop(madeBy refused: Set<UInt32>) {
        let made = { (event: ServerEvent) in Self.leavesChimed(event).map(refused.contains) == true }
        afterCommit.removeAll(where: made)
        waiting.removeAll(where: made)
    }

    /// The notification whose sound or hook this is.
    private static func leavesChimed(_ event: ServerEvent) -> UInt32? {
        switch event {
        case .playSound(let notification, _), .runHook(let notification, _): notification.id
        default: nil
        }
    }
}
