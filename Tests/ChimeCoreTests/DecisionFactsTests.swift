import ChimeCore
import Testing

/// What a decision was made from, as the center keeps it for `chimectl replay`.
@Suite struct DecisionFactsTests {
    /// Every fact reads back as it was written, a Focus and a track whose names hold the
    /// separators among them.
    @Test func factsReadBackAsTheyWere() throws {
        var facts = DecisionFacts()
        facts.focus = "Deep;Work=100%"
        (facts.locked, facts.muted, facts.appFocused, facts.repeats, facts.onRequest) = (true, true, true, true, true)
        facts.replacing = "quiet"
        (facts.cooling, facts.coolingBanner, facts.coolingLevel) = (true, true, .timeSensitive)
        (facts.budgetRecent, facts.budgetOver, facts.budgetExempt) = (3, true, true)
        (facts.rateLimited, facts.soundAdmitted, facts.explainedTimeSensitive) = (true, false, false)
        facts.nowPlaying = "A;B"
        (facts.asked, facts.level, facts.banner, facts.sound, facts.hold) = (.critical, .passive, true, true, "focus")
        #expect(DecisionFacts(encoded: facts.encoded) == facts)
        #expect(DecisionFacts(encoded: DecisionFacts().encoded) == DecisionFacts())
        #expect(DecisionFacts().encoded == "level=active")
    }
}
