import Testing
@testable import ChimeCore

/// A pattern that matches where its text occurs, standing in for the edge's regular expressions.
struct Contains: TextPattern {
    let source: String
    init(_ source: String) { self.source = source }
    func matches(_ text: String) -> Bool? { text.contains(source) }
}

/// A pattern that always meets its match budget, as `(a+)+$` does on a long run of a's.
struct Runaway: TextPattern {
    let source = "(a+)+$"
    func matches(_ text: String) -> Bool? { nil }
}

/// The user's `[rule NAME]` sections, with a manual clock.
@Suite struct RuleTests {
    let now = at(.monday, "10:00")

    func rule(_ name: String, _ criteria: [(NotificationRule.Field, String)] = [], urgency: Urgency? = nil,
              level: InterruptionLevel? = nil, _ settings: [String: String] = [:]) -> NotificationRule {
        var rule = NotificationRule(name: name)
        rule.criteria = criteria.map { .init($0.0, Contains($0.1)) }
        rule.urgency = urgency
        rule.level = level
        rule.settings = settings
        return rule
    }

    func attention(_ rules: NotificationRule...) -> Attention {
        var settings = ChimeSettings()
        settings.rules = rules
        settings.focusModes.append(FocusMode(name: "work"))
        return Attention(settings: settings)
    }

    func decision(_ request: NotificationRequest, in attention: inout Attention) throws -> DeliveryDecision? {
        let id = try attention.notify(request, from: ":1.1", now: now).id
        return attention.server.notification(id)?.decision
    }

    @Test func aRuleChangesTheSettingsOfWhatItMatchesAndNothingElse() throws {
        var attention = attention(rule("quiet-spotify", [(.app, "Spotify"), (.summary, "Now playing")],
                                       ["banners": "false", "show-in-center": "false", "timeout": "2000"]))
        let matched = try #require(try decision(.make(app: "Spotify", summary: "Now playing: Song"), in: &attention))
        #expect(!matched.banner && !matched.inCenter && matched.lifetime == .after(.milliseconds(2_000)))
        #expect(matched.sound, "sounds were not touched")
        #expect(matched.rules == ["quiet-spotify"], "the decision names the rules that shaped it")
        #expect(matched.chosenSound == nil)
        var ringing = self.attention(rule("ding", [(.summary, "build")], ["sound": "bell"]))
        #expect(try decision(.make(summary: "build failed"), in: &ringing)?.chosenSound == "bell", "a rule chooses a sound too")
        let otherSummary = try #require(try decision(.make(app: "Spotify", summary: "Update available"), in: &attention))
        #expect(otherSummary.banner && otherSummary.inCenter && otherSummary.lifetime == .serverDefault, "every pattern must match")
        let otherApp = try #require(try decision(.make(app: "Music", summary: "Now playing: Song"), in: &attention))
        #expect(otherApp.banner && otherApp.rules.isEmpty)
    }

    @Test func laterRulesWinForEachSettingTheySet() {
        let rules = [rule("first", [(.summary, "build")], level: .passive, ["sounds": "false", "banners": "false"]),
                     rule("second", [(.summary, "failed")], ["banners": "true"]),
                     rule("unmatched", [(.summary, "deploy")], level: .critical)]
        let effect = RuleEffect.of(rules, on: .make(summary: "build failed"))
        #expect(effect == RuleEffect(rules: ["first", "second"], level: .passive, settings: ["sounds": "false", "banners": "true"]))
        #expect(RuleEffect.of(rules, on: .make(summary: "tests passed")) == nil)
    }

    /// The level is the user's word: not clamped by the app's permissions (critical alerts are
    /// off by default) nor by its time-sensitive budget. Consent still holds.
    @Test func aRulesLevelIsFinal() throws {
        var attention = attention(rule("pager", [(.summary, "PAGE")], level: .critical),
                                  rule("ci", [(.summary, "build")], level: .timeSensitive))
        let page = try #require(try decision(.make(app: "oncall", summary: "PAGE: db down"), in: &attention))
        #expect(page.level == .critical && page.lifetime == .untilClosed)
        let asked = try #require(try decision(.make(app: "oncall", summary: "x", hints: ["x-chime-interruption-level": .string("critical")]),
                                              in: &attention))
        #expect(asked.level == .timeSensitive, "without a rule, the app's permissions clamp what it asks")
        let urgent: [String: BusValue] = ["urgency": .byte(2)]
        let deploys = try (0..<4).map { try decision(.make(app: "ci", summary: "deploy \($0)", hints: urgent), in: &attention)?.level }
        #expect(deploys == [.timeSensitive, .timeSensitive, .timeSensitive, .active], "the app went over its budget")
        for index in 0..<2 {
            let build = try #require(try decision(.make(app: "ci", summary: "build \(index)"), in: &attention))
            #expect(build.level == .timeSensitive, "past the budget too")
        }
        attention.setOverride("oncall", "authorization", "denied")
        #expect(try decision(.make(app: "oncall", summary: "PAGE again"), in: &attention) == nil, "a denied app stays denied")
    }

    /// Chime explains time-sensitive to an app's user the first time the app asks for it; a rule
    /// that makes a notification time-sensitive is the user's own doing, with nothing to explain.
    @Test func aRulesTimeSensitiveLevelIsNotExplainedAsTheApps() throws {
        var attention = attention(rule("ci", [(.summary, "failed")], level: .timeSensitive))
        let ruled = try attention.notify(.make(app: "ci", summary: "build failed"), from: ":1.1", now: now).id
        #expect(attention.server.notification(ruled)?.decision?.offers.isEmpty == true)
        let asked = try attention.notify(.make(app: "ci", summary: "deploy", hints: ["urgency": .byte(2)]), from: ":1.1", now: now).id
        #expect(attention.server.notification(asked)?.decision?.offers.flatMap(\.actions).map(\.key) == [Offer.turnOffTimeSensitive])
    }

    @Test func aRuleLevelBreaksThroughFocusAsThatLevelWould() throws {
        var attention = attention(rule("family", [(.summary, "Mum")], level: .critical))
        _ = try attention.focusOn("work", until: nil, now: now)
        #expect(try decision(.make(summary: "Mum calling"), in: &attention)?.hold == nil)
        #expect(try decision(.make(summary: "Newsletter"), in: &attention)?.hold == .focus("work"))
    }

    /// A rule whose pattern meets its budget matches nothing and is turned off, said once; the
    /// other rules still apply.
    @Test func aRuleThatMeetsItsMatchBudgetIsTurnedOff() throws {
        var runaway = rule("runaway", level: .critical)
        runaway.criteria = [.init(.body, Runaway())]
        var attention = attention(runaway, rule("quiet", [(.summary, "x")], ["sounds": "false"]))
        let first = try attention.notify(.make(summary: "x", body: "aaaab"), from: ":1.1", now: now)
        #expect(first.events.contains(.ruleTurnedOff("runaway", app: "app")))
        #expect(attention.server.notification(first.id)?.decision?.rules == ["quiet"])
        #expect(attention.disabledRules == ["runaway"])
        let second = try attention.notify(.make(summary: "x", body: "aaaab again"), from: ":1.1", now: now)
        #expect(!second.events.contains { if case .ruleTurnedOff = $0 { true } else { false } }, "said once")
    }

    @Test func fieldsMatchWhatTheySay() {
        func matches(_ criteria: [(NotificationRule.Field, String)], urgency: Urgency? = nil, _ request: NotificationRequest) -> Bool {
            RuleEffect.of([rule("r", criteria, urgency: urgency, ["sounds": "false"])], on: request) != nil
        }
        let entry: [String: BusValue] = ["desktop-entry": .string("org.gnome.Evolution")]
        #expect(matches([(.app, "Evolution")], .make(app: "Mail", hints: entry)), "the desktop entry")
        #expect(matches([(.app, "Mail")], .make(app: "Mail", hints: entry)), "or the app name")
        #expect(!matches([(.category, "email")], .make()), "no category matches no category pattern")
        #expect(matches([(.category, "email")], .make(hints: ["category": .string("email.arrived")])))
        #expect(matches([(.body, "Tom & Jerry <3")], .make(body: "<b>Tom</b> &amp; Jerry &lt;3")), "the body's text, not its markup")
        #expect(!matches([(.body, "<b>")], .make(body: "<b>Tom</b>")))
        #expect(matches([], urgency: .normal, .make()), "no urgency hint is normal")
        #expect(!matches([], urgency: .low, .make()))
        #expect(matches([], urgency: .low, .make(hints: ["urgency": .byte(0)])))
    }

    @Test func restoringANotificationAppliesTheRulesAgain() throws {
        var attention = attention(rule("quiet", [(.summary, "hush")], level: .critical, ["sounds": "false"]))
        let id = try attention.notify(.make(summary: "hush now"), from: ":1.1", now: now).id
        let shown = try #require(attention.server.notification(id))
        let events = attention.presentAgain(shown, now: now)
        #expect(attention.server.notification(id)?.decision?.level == .critical)
        #expect(events.contains { if case .playSound(_, let choice) = $0 { choice.level == .critical } else { false } },
                "critical plays even with the app's sounds off")
    }

    @Test func markupTextIsWhatTheBodyShows() {
        #expect(MarkupText.plain("plain") == "plain")
        #expect(MarkupText.plain("<b>a</b> <a href=\"https://x?a=1&amp;b=2\">link</a>") == "a link")
        #expect(MarkupText.plain("&lt;&gt;&amp;&quot;&apos;&#x41;&#66;") == "<>&\"'AB")
        #expect(MarkupText.plain("<img src=\"/tmp/a.png\" alt=\"cat\"/>: &unknown; & done") == ": &unknown; & done")
    }
}
