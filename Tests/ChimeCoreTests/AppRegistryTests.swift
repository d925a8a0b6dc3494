import Testing
@testable import ChimeCore

/// The apps Chime remembers stay bounded, whatever names clients invent; what the user set stays.
@Suite struct AppRegistryTests {
    @Test func pastItsCapacityTheOldestAppsTheUserSetNothingForAreForgotten() {
        var registry = AppRegistry()
        registry.update("kept-by-the-user") { $0.overrides["banners"] = "false" }
        registry.update("asked") { $0.explainedTimeSensitive = true }
        for n in 0..<(AppRegistry.capacity * 3 / 2) { registry.see("invented-\(n)") }
        #expect(registry.records.count <= AppRegistry.capacity)
        #expect(registry.record("kept-by-the-user")?.overrides == ["banners": "false"])
        #expect(registry.record("asked") == nil, "what Chime asked is asked again")
        #expect(registry.record("invented-\(AppRegistry.capacity * 3 / 2 - 1)") != nil, "the newest stay")
        #expect(registry.record("invented-0") == nil, "the oldest go")
    }

    /// Through the model: a client that names a new app in every notification.
    @Test func aClientInventingAppNamesGrowsNothing() throws {
        var attention = Attention()
        for n in 0..<(AppRegistry.capacity + 200) {
            _ = try attention.notify(.make(app: "spam-\(n)", timeout: 0), from: ":1.1", now: at(.monday, "10:00"))
        }
        #expect(attention.apps.records.count <= AppRegistry.capacity)
    }
}
