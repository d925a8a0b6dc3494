import ChimeCore
import Testing

/// A decision's reasons as the center keeps them: messages and values, said when shown.
@Suite struct ReasonTests {
    @Test func keptReasonsReadBackAsTheyWere() {
        let reasons = [Reason("{level}: urgency {urgency}", ["level": "active", "urgency": "normal"]),
                       Reason("held: Focus {focus} does not allow {name}", ["focus": "Work", "name": "Chat\nline\u{1F}two"]),
                       Reason("no sound: sounds are muted")]
        let read = Reason.read(Reason.kept(reasons))
        #expect(read.count == 3)
        #expect(read.map(\.text) == ["level active: urgency normal", "held: Focus Work does not allow Chat line two", "no sound: sounds are muted"])
        #expect(read[1].explainsQuiet && !read[0].explainsQuiet)
    }

    /// A line an older chimed kept, already a sentence, is said as it was.
    @Test func anOlderChimedsSentencesStayAsTheyAre() {
        #expect(Reason.read("level active: urgency normal\nquiet: over {name}'s rate limit").map(\.text)
                    == ["level active: urgency normal", "quiet: over {name}'s rate limit"])
    }
}
