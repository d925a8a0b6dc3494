import Testing
@testable import ChimeDaemon

@Suite struct RetiredClosesTests {
    @Test func givesIdsBackOldestFirstInBatches() {
        var queue = RetiredCloses()
        for id in UInt32(1)...10_000 { queue.append(id, now: 0) }
        var told: [UInt32] = []
        while !queue.isEmpty { told += queue.take(atMost: 64) }
        #expect(told == Array(1...10_000))
        #expect(queue.count == 0 && queue.take(atMost: 64).isEmpty)
        // Appending after it ran dry starts a fresh queue.
        queue.append(10_001, now: 0)
        #expect(queue.take(atMost: 64) == [10_001])
    }

    @Test func pastItsCapacityTheOldestAreToldAtOnce() {
        var queue = RetiredCloses()
        for id in UInt32(1)...UInt32(RetiredCloses.capacity + 3) { queue.append(id, now: 0) }
        #expect(queue.isOverCapacity)
        #expect(queue.takeOverCapacity() == [1, 2, 3])
        #expect(!queue.isOverCapacity && queue.count == RetiredCloses.capacity)
        #expect(queue.take(atMost: 1) == [4])
    }

    @Test func appsAreToldOnceTheFloodPauses() {
        var queue = RetiredCloses()
        func look(_ now: Int64) -> Bool { queue.shouldWait(now: now) }
        queue.append(1, now: 0)
        #expect(look(100), "one was retired since the wait began")
        queue.append(2, now: 150)
        #expect(look(200), "still flooding")
        #expect(!look(300), "nothing retired for a while: tell them")
    }

    @Test func aFloodThatNeverPausesIsToldWithinFiveSeconds() {
        var queue = RetiredCloses()
        func look(_ now: Int64) -> Bool { queue.shouldWait(now: now) }
        var now: Int64 = 1_000
        queue.append(1, now: now)
        while now < 1_000 + RetiredCloses.longestWaitMilliseconds - 100 {
            now += 100
            queue.append(UInt32(now), now: now)
            #expect(look(now))
        }
        now += 100
        queue.append(UInt32(now), now: now)
        #expect(!look(now), "the oldest has waited five seconds")
        queue.append(UInt32(now + 1), now: now + 1)
        #expect(!look(now + 2), "and the rest follow while it goes on")
        _ = queue.take(atMost: queue.count)
        queue.append(99, now: now + 10)
        #expect(look(now + 20), "a new wait once all were told")
    }
}
