import Testing
import ChimeControl
import ChimeCore

/// The order banners are shown in, newest first, shared by both programs that draw them.
@Suite struct BannerQueueTests {
    static func banner(_ id: UInt32, _ summary: String = "", explains: UInt32? = nil) -> BannerContent {
        var record: [String: BusValue] = ["summary": .string(summary)]
        if let explains { record["explains"] = .uint32(explains) }
        return BannerContent(id: id, record: record)
    }

    @Test func theNewestComesFirstAndAnExplanationRightAfterWhatItExplains() {
        var queue = BannerQueue()
        queue.show(Self.banner(1))
        queue.show(Self.banner(2))
        queue.show(Self.banner(3, explains: 1))
        #expect(queue.contents.map(\.id) == [2, 1, 3])
        queue.show(Self.banner(4, explains: 9))
        #expect(queue.contents.map(\.id) == [4, 2, 1, 3], "explaining what is not shown: first, as any")
    }

    @Test func anIdShownAgainIsRedrawnInItsPlace() {
        var queue = BannerQueue()
        queue.show(Self.banner(1, "old"))
        queue.show(Self.banner(2))
        let stale = queue.show(Self.banner(1, "new"))
        #expect(stale == 1, "its drawing is out of date")
        #expect(queue.contents.map(\.id) == [2, 1] && queue.contents.last?.summary == "new")
        let none = queue.show(Self.banner(5))
        #expect(none == nil)
    }

    @Test func aThreadsNewestTakesItsBannersPlace() {
        var queue = BannerQueue()
        queue.show(Self.banner(1))
        queue.show(Self.banner(2))
        queue.show(Self.banner(3))
        var stale = queue.show(Self.banner(4), replacing: 2)
        #expect(stale == [2, 4] && queue.contents.map(\.id) == [3, 4, 1])
        stale = queue.show(Self.banner(1), replacing: 4)
        #expect(stale == [4, 1] && queue.contents.map(\.id) == [3, 1], "one shown elsewhere moves to the thread's place")
        stale = queue.show(Self.banner(7), replacing: 99)
        #expect(stale == [] && queue.contents.first?.id == 7, "nothing to replace: a new banner")
    }

    @Test func hidingSaysWhetherItWasThere() {
        var queue = BannerQueue()
        queue.show(Self.banner(1))
        let hidden = queue.hide(1)
        #expect(hidden && queue.isEmpty)
        let again = queue.hide(1)
        #expect(!again)
    }
}
