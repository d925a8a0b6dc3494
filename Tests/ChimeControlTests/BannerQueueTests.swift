import Testing
import ChimeControl
import ChimeCore

/// The order banners are shown in, newest first, shared by both programs that draw them.
@Suite struct BannerQueueTests {
    static func banner(_ id: UInt32, _ summary: String = "") -> BannerContent {
        BannerContent(id: id, record: ["summary": .string(summary)])
    }

    @Test func theNewestComesFirst() {
        var queue = BannerQueue()
        queue.show(Self.banner(1))
        queue.show(Self.banner(2))
        queue.show(Self.banner(3))
        #expect(queue.contents.map(\.id) == [3, 2, 1])
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
