import Testing
@testable import ChimeDaemon

@Suite struct RetiredClosesTests {
    @Test func givesIdsBackOldestFirstInBatches() {
        var queue = RetiredCloses()
        for id in UInt32(1)...10_000 { queue.append(id) }
        var told: [UInt32] = []
        while !queue.isEmpty { told += queue.take(atMost: 64) }
        #expect(told == Array(1...10_000))
        #expect(queue.count == 0 && queue.take(atMost: 64).isEmpty)
        // Appending after it ran dry starts a fresh queue.
        queue.append(10_001)
        #expect(queue.take(atMost: 64) == [10_001])
    }

    @Test func pastItsCapacityTheOldestAreToldAtOnce() {
        var queue = RetiredCloses()
        for id in UInt32(1)...UInt32(RetiredCloses.capacity + 3) { queue.append(id) }
        #expect(queue.isOverCapacity)
        #expect(queue.takeOverCapacity() == [1, 2, 3])
        #expect(!queue.isOverCapacity && queue.count == RetiredCloses.capacity)
        #expect(queue.take(atMost: 1) == [4])
    }
}
