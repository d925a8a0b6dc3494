import ChimeGLib

/// The minute tick, only while the clock matters (`Attention.followsTheClock`: a Focus
/// schedule, a summary time, a Focus on until a time), so an idle chimed sleeps.
extension Daemon {
    /// Retention by age needs no change to come due: an hourly look is soon enough.
    static let retentionCheck: UInt32 = 3_600_000

    /// Arms the tick for the next minute, unless it is armed or nothing follows the clock: at
    /// start, on reload (a new schedule or summary time) and when the Focus changes (`settle`).
    func followTheClock() {
        guard !ticking, attention.followsTheClock else { return }
        ticking = true
        GLibSources.timeout(milliseconds: LocalClock.untilNextMinute()) { [unowned self] in
            ticking = false
            apply(attention.tick(now: now))
            followTheClock()
            return false
        }
    }
}
