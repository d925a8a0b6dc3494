import Testing
@testable import ChimeCore

/// A manual clock for local time: day numbers advance by one, weekdays with them.
func at(day: Int = 100, _ weekday: Weekday, _ time: String, wall: Int64 = 0) -> Now {
    Now(monotonic: Instant(milliseconds: wall), wall: wall,
        local: LocalTime(day: day, weekday: weekday, minuteOfDay: ClockTime(parsing: time)!.minuteOfDay))
}

@Suite struct FocusScheduleTests {
    func schedule(_ text: String) -> FocusSchedule { try! FocusSchedule.parse(text).get() }

    @Test func weekdayHours() {
        let work = schedule("mon-fri 09:00-17:00")
        #expect(work.isActive(at: at(.monday, "09:00").local))
        #expect(work.isActive(at: at(.friday, "16:59").local))
        #expect(!work.isActive(at: at(.friday, "17:00").local))
        #expect(!work.isActive(at: at(.saturday, "10:00").local))
        #expect(!work.isActive(at: at(.monday, "08:59").local))
    }

    @Test func aSpanCrossingMidnightBelongsToTheDayItStarts() {
        let sleep = schedule("sun-thu 22:00-07:00")
        #expect(sleep.isActive(at: at(.sunday, "23:30").local))
        #expect(sleep.isActive(at: at(.monday, "06:59").local))  // begun Sunday night
        #expect(!sleep.isActive(at: at(.monday, "07:00").local))
        #expect(sleep.isActive(at: at(.thursday, "22:00").local))
        #expect(sleep.isActive(at: at(.friday, "03:00").local))  // begun Thursday night
        #expect(!sleep.isActive(at: at(.friday, "22:30").local))
        #expect(!sleep.isActive(at: at(.sunday, "03:00").local)) // Saturday night is not in the schedule
    }

    @Test func acrossADaylightSavingChangeTheLocalClockDecides() {
        // Spring forward: 01:59 is followed by 03:00. A 02:00-02:30 span never happens; 01:30-03:30 ends on time.
        let night = schedule("sun 01:30-03:30")
        #expect(night.isActive(at: at(.sunday, "01:59").local))
        #expect(night.isActive(at: at(.sunday, "03:00").local))
        #expect(!night.isActive(at: at(.sunday, "03:30").local))
        // Fall back: 02:59 is followed by 02:00 again; the span holds through both passes.
        #expect(night.isActive(at: at(.sunday, "02:59").local) && night.isActive(at: at(.sunday, "02:00").local))
    }

    @Test(arguments: ["daily 08:00-09:00", "weekdays 08:00-09:00", "weekends 08:00-09:00", "mon,wed-fri 08:00-09:00", "sat-mon 23:00-01:00"])
    func dayListsParse(text: String) throws {
        _ = try FocusSchedule.parse(text).get()
    }

    @Test func wrapAroundDayRanges() {
        #expect(schedule("sat-mon 08:00-09:00").days == [.saturday, .sunday, .monday])
        #expect(schedule("weekdays 08:00-09:00").days.count == 5)
    }

    @Test(arguments: ["mon-fri 09:00-09:00", "mon-fri 25:00-26:00", "mon-fri 9-17", "funday 09:00-17:00", "09:00-17:00", "mon-fri 09:00-17:00 extra"])
    func badSchedulesAreRefusedWithAReason(text: String) {
        guard case .failure(let problem) = FocusSchedule.parse(text) else { Issue.record("accepted \(text)"); return }
        #expect(problem.description.contains(text))
    }
}

@Suite struct FocusStateTests {
    var state = FocusState()
    let modes: [FocusMode] = {
        var work = FocusMode(name: "work")
        work.schedules = [try! FocusSchedule.parse("mon-fri 09:00-17:00").get()]
        return [FocusMode(name: "dnd"), work]
    }()

    @Test mutating func manualOnWithAnEnd() {
        state.turnOn("dnd", until: 60_000)
        #expect(state.active(modes: modes, now: at(.saturday, "10:00", wall: 59_999))?.name == "dnd")
        #expect(state.active(modes: modes, now: at(.saturday, "10:01", wall: 60_000)) == nil)
    }

    @Test mutating func schedulesTurnFocusOnAndOff() {
        #expect(state.active(modes: modes, now: at(.tuesday, "10:00")) == .init(name: "work", source: .schedule, until: nil))
        #expect(state.active(modes: modes, now: at(.tuesday, "18:00")) == nil)
    }

    @Test mutating func manualWinsOverInhibitorsWhichWinOverSchedules() {
        let cookie = state.inhibit(focus: "dnd", owner: ":1.5", application: "obs", reason: "recording")
        #expect(state.active(modes: modes, now: at(.tuesday, "10:00"))?.source == .inhibitor)
        state.turnOn("work", until: nil)
        #expect(state.active(modes: modes, now: at(.tuesday, "10:00"))?.source == .manual)
        state.turnOff(modes: [], now: at(.tuesday, "10:00"))
        let released = state.uninhibit(cookie)
        let again = state.uninhibit(cookie)
        #expect(released && !again)
    }

    @Test mutating func inhibitorsEndWhenTheirClientLeaves() {
        _ = state.inhibit(focus: "dnd", owner: ":1.5", application: "obs", reason: "recording")
        state.release(owner: ":1.5")
        #expect(state.active(modes: modes, now: at(.saturday, "10:00")) == nil)
    }

    @Test mutating func turningOffAScheduledFocusLastsUntilItsSpanEnds() {
        state.turnOff(modes: modes, now: at(.tuesday, "10:00"))
        #expect(state.active(modes: modes, now: at(.tuesday, "16:00")) == nil)
        state.tidy(modes: modes, now: at(.tuesday, "17:00"))
        #expect(state.active(modes: modes, now: at(day: 101, .wednesday, "09:00"))?.name == "work")
    }
}

@Suite struct ScheduledSummaryTests {
    let times = [ClockTime(parsing: "08:00")!, ClockTime(parsing: "18:00")!]

    @Test func dueWhenADeliveryTimePasses() {
        #expect(ScheduledSummary.isDue(times: times, from: at(.monday, "07:59").local, to: at(.monday, "08:00").local))
        #expect(!ScheduledSummary.isDue(times: times, from: at(.monday, "08:00").local, to: at(.monday, "08:01").local))
        #expect(!ScheduledSummary.isDue(times: times, from: at(.monday, "08:01").local, to: at(.monday, "17:59").local))
    }

    @Test func aTimeSkippedByTheClockStillCounts() {
        // Daylight saving jumps 01:59 -> 03:00; a suspended laptop wakes the next morning.
        let early = [ClockTime(parsing: "02:30")!]
        #expect(ScheduledSummary.isDue(times: early, from: at(.sunday, "01:59").local, to: at(.sunday, "03:00").local))
        #expect(ScheduledSummary.isDue(times: times, from: at(day: 100, .monday, "19:00").local, to: at(day: 101, .tuesday, "09:00").local))
        #expect(ScheduledSummary.isDue(times: times, from: at(day: 100, .monday, "23:00").local, to: at(day: 101, .tuesday, "08:00").local))
    }

    /// Newest by id: notifications put back from the center after a restart all have the time 0.
    @Test func orderedByRelevanceThenNewest() {
        func note(_ summary: String, relevance: Double?, id: UInt32) -> Notification {
            var hints: [String: BusValue] = [:]
            if let relevance { hints["x-chime-relevance"] = .double(relevance) }
            return Notification(id: id, request: .make(summary: summary, hints: hints), sender: ":1.1",
                                created: .at(0), updated: .at(0), expires: nil)
        }
        let ordered = ScheduledSummary.ordered([note("old", relevance: nil, id: 1), note("top", relevance: 0.9, id: 2),
                                                note("new", relevance: nil, id: 3), note("low", relevance: 0.1, id: 4)])
        #expect(ordered.map(\.request.summary) == ["top", "new", "old", "low"])
    }
}
