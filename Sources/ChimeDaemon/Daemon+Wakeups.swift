import ChimeGLib

/// What chimed does when nobody calls, only while there is something to do, so an idle chimed
/// sleeps: the minute tick while the clock matters (`Attention.followsTheClock`: a Focus
/// schedule, a summary time, a Focus on until a time), and housekeeping (the activity figures to
/// the store, the write-ahead log into the database, retention) a few seconds after a change.
extension Daemon {
    static let housekeepingDelay: UInt32 = 5_000
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

    /// Housekeeping in a few seconds if it has work: after each bus turn and each write to the
    /// store outside one (`inOneTransaction`). A turn that changed nothing (a GetStatus, a client
    /// leaving) arms nothing.
    func housekeepIfDue() {
        guard let center else { return }  // without history there is nothing to keep
        if center.store.needsCheckpoint || !activity.isEmpty || center.rowsSincePrune > 0 { housekeepSoon() }
    }

    /// Housekeeping in a few seconds, unless it is armed; hourly whatever happened (retention by
    /// age). A pass that leaves work (a failed checkpoint, a prune's next batch) arms the next.
    func housekeepSoon() {
        guard !housekeepingArmed else { return }
        housekeepingArmed = true
        GLibSources.timeout(milliseconds: Self.housekeepingDelay) { [unowned self] in
            keepActivity()
            prune()
            store?.checkpoint()
            housekeepingArmed = false  // not before: its own writes arm no second pass
            housekeepIfDue()
            return false
        }
    }
}
