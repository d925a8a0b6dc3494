import Testing
@testable import ChimeCore

/// Every level as chimed(1)'s attention model has it, and the README's table in short.
@Suite struct DecisionTableTests {
    /// An app allowed everything, so each level arrives as asked.
    static var trusting: AppSettings {
        var app = AppSettings()
        app.criticalAlerts = true
        return app
    }

    static func request(_ level: InterruptionLevel) -> NotificationRequest {
        .make(app: "app", hints: ["x-chime-interruption-level": .string(level.rawValue)])
    }

    static func decide(_ level: InterruptionLevel, app: AppSettings = trusting, focus: FocusMode? = nil,
                       muted: Bool = false) -> DeliveryDecision {
        DeliveryDecision.decide(request(level), identity: "app",
                                context: .init(app: app, focus: focus, muted: muted))
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var level: InterruptionLevel
        var banner: Bool
        var sound: Bool
        var overridesSummary: Bool
        var breaksThroughFocus: Bool
        var breaksThroughFocusWithoutTimeSensitive: Bool
        var playsWhenMuted: Bool
        var testDescription: String { level.rawValue }
    }

    static let table: [Row] = [
        Row(level: .passive, banner: false, sound: false, overridesSummary: false, breaksThroughFocus: false,
            breaksThroughFocusWithoutTimeSensitive: false, playsWhenMuted: false),
        Row(level: .active, banner: true, sound: true, overridesSummary: false, breaksThroughFocus: false,
            breaksThroughFocusWithoutTimeSensitive: false, playsWhenMuted: false),
        Row(level: .timeSensitive, banner: true, sound: true, overridesSummary: true, breaksThroughFocus: true,
            breaksThroughFocusWithoutTimeSensitive: false, playsWhenMuted: false),
        Row(level: .critical, banner: true, sound: true, overridesSummary: true, breaksThroughFocus: true,
            breaksThroughFocusWithoutTimeSensitive: true, playsWhenMuted: true),
    ]

    @Test(arguments: table) func bannerAndSound(row: Row) {
        let decision = Self.decide(row.level)
        #expect(decision.level == row.level)
        #expect(decision.banner == row.banner)
        #expect(decision.sound == row.sound)
    }

    @Test(arguments: table) func everyLevelIsKeptInTheCenter(row: Row) {
        #expect(Self.decide(row.level).inCenter)
    }

    @Test(arguments: table) func scheduledSummary(row: Row) {
        var app = Self.trusting
        app.delivery = .summary
        let decision = Self.decide(row.level, app: app)
        #expect((decision.hold == nil) == row.overridesSummary)
        if !row.overridesSummary { #expect(decision.hold == .summary && !decision.banner && !decision.sound) }
    }

    @Test(arguments: table) func focusThatAllowsTimeSensitive(row: Row) {
        let decision = Self.decide(row.level, focus: FocusMode(name: "work"))
        #expect((decision.hold == nil) == row.breaksThroughFocus)
        if !row.breaksThroughFocus { #expect(decision.hold == .focus("work") && !decision.banner && !decision.sound) }
    }

    @Test(arguments: table) func focusThatRefusesTimeSensitive(row: Row) {
        var focus = FocusMode(name: "sleep")
        focus.allowsTimeSensitive = false
        #expect((Self.decide(row.level, focus: focus).hold == nil) == row.breaksThroughFocusWithoutTimeSensitive)
    }

    @Test(arguments: table) func muted(row: Row) {
        #expect(Self.decide(row.level, muted: true).sound == row.playsWhenMuted)
    }

    @Test func criticalBannersNeverExpireOthersDo() {
        #expect(Self.decide(.critical).lifetime == .untilClosed)
        #expect(Self.decide(.timeSensitive).lifetime == .serverDefault && Self.decide(.active).lifetime == .serverDefault)
    }

    /// How long a notification stays is decided with the rest, and says why.
    @Test func lifetimeFollowsTheLevelTheAppsTimeoutThenTheRequest() {
        func decide(_ hints: [String: BusValue], timeout: Int32 = -1, app: AppSettings = AppSettings()) -> DeliveryDecision {
            DeliveryDecision.decide(.make(app: "app", timeout: timeout, hints: hints), identity: "app", context: .init(app: app))
        }
        var short = AppSettings()
        short.timeout = .after(.seconds(3))
        var never = AppSettings()
        never.timeout = .never
        #expect(decide([:], timeout: 5000).lifetime == .after(.seconds(5)))
        #expect(decide([:], timeout: 0).lifetime == .untilClosed)
        #expect(decide([:], timeout: 0).reasons.map(\.text).last == "stays until closed: the app asks (expire_timeout 0)")
        #expect(decide(["urgency": .byte(2)]).lifetime == .untilClosed, "the spec: critical urgency does not expire")
        #expect(decide(["urgency": .byte(2)]).reasons.map(\.text).last == "stays until closed: urgency critical")
        #expect(decide(["urgency": .byte(2)], app: short).lifetime == .after(.seconds(3)), "the user's timeout wins over urgency")
        #expect(decide([:], app: never).reasons.map(\.text).last == "stays until closed: app has timeout = never")
        var trusted = short
        trusted.criticalAlerts = true
        #expect(decide(["x-chime-interruption-level": .string("critical")], app: trusted).lifetime == .untilClosed,
                "a critical level stays, whatever the timeout")
    }
}

/// How the level is found (chimed(1)'s attention model, rules 1-4) and what apps may do.
@Suite struct InterruptionLevelTests {
    func level(_ hints: [String: BusValue], app: AppSettings = AppSettings()) -> InterruptionLevel {
        InterruptionPolicy.level(.make(hints: hints), app: app)
    }

    @Test func urgencyMapsToLevels() {
        #expect(level(["urgency": .byte(0)]) == .passive)
        #expect(level([:]) == .active)
        #expect(level(["urgency": .byte(1)]) == .active)
        #expect(level(["urgency": .byte(2)]) == .timeSensitive)
    }

    @Test func theExplicitHintWins() {
        #expect(level(["urgency": .byte(2), "x-chime-interruption-level": .string("passive")]) == .passive)
        #expect(level(["urgency": .byte(0), "x-chime-interruption-level": .string("time-sensitive")]) == .timeSensitive)
    }

    @Test(arguments: [("call.incoming", InterruptionLevel.timeSensitive), ("alarm.ringing", .timeSensitive),
                      ("cellbroadcast.danger.extreme", .timeSensitive), ("weather.warning.extreme", .timeSensitive),
                      ("im.received", .passive)])
    func categoriesRaiseTheFloorWithinPermissions(category: String, expected: InterruptionLevel) {
        // Without critical-alerts, a critical floor still ends at time-sensitive.
        #expect(level(["urgency": .byte(0), "category": .string(category)]) == expected)
    }

    /// A family is the category itself and what follows it after a dot, never a longer word.
    @Test(arguments: [("im", true), ("im.received", true), ("im.", true), ("call.incoming", true), ("call", true),
                      ("imx", false), ("i", false), ("", false), ("callback", false), ("email.arrived", false),
                      ("x.im", false), ("IM", false)])
    func communicationIsTheImAndCallFamilies(category: String, isCommunication: Bool) {
        var hints = NotificationHints()
        hints.category = category
        #expect(InterruptionPolicy.isCommunication(NotificationRequest(appName: "a", summary: "s", hints: hints)) == isCommunication)
    }

    @Test func criticalCategoriesAreCriticalWithThePermission() {
        var app = AppSettings()
        app.criticalAlerts = true
        #expect(level(["category": .string("cellbroadcast.amber-alert")], app: app) == .critical)
        #expect(level(["category": .string("weather.warning.extreme")], app: app) == .critical)
    }

    /// Design section 2: urgency critical is critical from an app granted critical-alerts (the
    /// battery tool), time-sensitive from others; Chromium's means only "stay on screen".
    @Test func urgencyCriticalIsCriticalForAnAppGrantedCriticalAlerts() {
        var battery = AppSettings()
        battery.criticalAlerts = true
        #expect(level(["urgency": .byte(2)], app: battery) == .critical)
        #expect(level(["urgency": .byte(2)]) == .timeSensitive)
        #expect(level(["urgency": .byte(2), "x-chime-interruption-level": .string("active")], app: battery) == .active, "the explicit hint wins")
        let decision = DeliveryDecision.decide(.make(app: "battery", hints: ["urgency": .byte(2)]), identity: "battery",
                                               context: .init(app: battery, focus: FocusMode.builtIn.first { $0.name == FocusMode.fullscreen }))
        #expect(decision.level == .critical && decision.banner && decision.hold == nil, "it breaks through fullscreen")
        #expect(decision.reasons.map(\.text).first == "level critical: urgency critical from battery, which has critical-alerts")
    }

    @Test(arguments: [("Chromium", "chromium"), ("Google Chrome", "google-chrome"), ("Chromium", "org.chromium.Chromium"),
                      ("Brave", "brave-browser"), ("Google Chrome", nil)])
    func aBrowsersUrgencyCriticalIsActiveAndStays(app: String, entry: String?) {
        var hints: [String: BusValue] = ["urgency": .byte(2)]
        if let entry { hints["desktop-entry"] = .string(entry) }
        let budget = TimeSensitiveBudget(perHour: 3)
        let decision = DeliveryDecision.decide(.make(app: app, hints: hints), identity: entry ?? app,
                                               context: .init(app: AppSettings(), budget: budget))
        #expect(decision.level == .active && decision.budgetChange == nil, "no time-sensitive budget spent")
        #expect(decision.lifetime == .untilClosed && decision.offers.isEmpty)
        #expect(decision.reasons.map(\.text).first == "level active: a browser's urgency critical asks only to stay on screen (requireInteraction)")
        #expect(level(["urgency": .byte(2), "desktop-entry": .string("firefox")]) == .timeSensitive, "other apps' is urgent")
    }

    @Test func criticalNeedsCriticalAlertsAndTimeSensitiveNeedsItsPermission() {
        var app = AppSettings()
        #expect(level(["x-chime-interruption-level": .string("critical")], app: app) == .timeSensitive)
        app.timeSensitive = false
        #expect(level(["x-chime-interruption-level": .string("critical")], app: app) == .active)
        #expect(level(["urgency": .byte(2)], app: app) == .active)
    }

    @Test func marketingIsPassiveAndDroppedUnlessAllowed() {
        let request = NotificationRequest.make(hints: ["x-chime-marketing": .bool(true), "urgency": .byte(2)])
        var app = AppSettings()
        #expect(DeliveryDecision.decide(request, identity: "app", context: .init(app: app)).drop == .marketing)
        app.marketing = true
        let allowed = DeliveryDecision.decide(request, identity: "app", context: .init(app: app))
        #expect(allowed.drop == nil && allowed.level == .passive)
    }

    @Test func deniedAppsAreDroppedAndProvisionalOnesArePassive() {
        var app = AppSettings()
        app.authorization = .denied
        #expect(DeliveryDecision.decide(.make(), identity: "app", context: .init(app: app)).drop == .denied)
        app.authorization = .provisional
        let quiet = DeliveryDecision.decide(.make(hints: ["urgency": .byte(2)]), identity: "app", context: .init(app: app))
        #expect(quiet.level == .passive && !quiet.banner && !quiet.sound && quiet.inCenter)
    }

    @Test func overTheBudgetTimeSensitiveArrivesAsActive() {
        let decision = DeliveryDecision.decide(.make(hints: ["urgency": .byte(2)]), identity: "app",
                                               context: .init(app: AppSettings(), budget: TimeSensitiveBudget(perHour: 3, over: true)))
        #expect(decision.level == .active)
    }

    @Test func perAppSettings() {
        var app = AppSettings()
        app.banners = false
        app.sounds = false
        app.badges = false
        app.showInCenter = false
        let decision = DeliveryDecision.decide(.make(), identity: "app", context: .init(app: app))
        #expect(!decision.banner && !decision.sound && !decision.inCenter && !decision.unread)
        #expect(DeliveryDecision.decide(.make(), identity: "app", context: .init(app: AppSettings())).unread)
    }

    /// The sound the user chose for an app wins over what the app asks (sound-name, sound-file)
    /// and the level's; the level's stays the fallback, and critical keeps its own.
    @Test func theSoundChosenForAnAppWinsButCriticalKeepsItsOwn() {
        let asked: [String: BusValue] = ["sound-name": .string("bell"), "sound-file": .string("/tmp/app.oga")]
        func choice(_ chosen: String?, level: InterruptionLevel = .active) -> SoundChoice? {
            var app = AppSettings()
            app.criticalAlerts = true
            #expect(app.set("sound", to: chosen ?? "default") == nil)
            var hints = asked
            hints["x-chime-interruption-level"] = .string(level.rawValue)
            let request = NotificationRequest.make(hints: hints)
            let decision = DeliveryDecision.decide(request, identity: "app", context: .init(app: app))
            return SoundChoice.choose(for: request, decision: decision, settings: SoundSettings())
        }
        #expect(choice("message-new-email") == SoundChoice(file: nil, event: "message-new-email", fallback: "message-new-instant", level: .active))
        #expect(choice("/home/me/ding.oga", level: .timeSensitive)
                == SoundChoice(file: "/home/me/ding.oga", event: "chime-time-sensitive", fallback: "chime-time-sensitive", level: .timeSensitive))
        #expect(choice(nil) == SoundChoice(file: "/tmp/app.oga", event: "bell", fallback: "message-new-instant", level: .active), "as the app asks")
        #expect(choice("message-new-email", level: .critical)?.event == "bell", "critical: not the app's chosen sound")
        #expect(choice("message-new-email", level: .critical)?.fallback == "chime-critical")
    }

    @Test func aSoundSettingIsAnEventNameAnAbsolutePathOrDefault() {
        var app = AppSettings()
        for good in ["message-new-email", "bell", "x_y.2", "/home/me/sounds/ding.oga"] {
            #expect(app.set("sound", to: good) == nil && app.sound == good)
        }
        #expect(app.textValues.first { $0.key == "sound" }?.value == "/home/me/sounds/ding.oga")
        #expect(app.set("sound", to: "Default") == nil && app.sound == nil)
        for bad in ["", "sounds/ding.oga", "/home/me/../../etc/passwd", "two words", "bell;rm"] {
            #expect(app.set("sound", to: bad)?.hasPrefix("'\(bad)' is not a sound theme's event name") == true, "\(bad)")
        }
    }

    @Test func suppressSoundSilencesAndTransientSkipsTheCenter() {
        let decision = DeliveryDecision.decide(.make(hints: ["suppress-sound": .bool(true), "transient": .bool(true)]),
                                               identity: "app", context: .init(app: AppSettings()))
        #expect(decision.banner && !decision.sound && !decision.inCenter)
    }
}

/// Communication notifications and Focus allowlists (chimed(1)'s attention model: Focus and communication).
@Suite struct FocusAllowanceTests {
    var work: FocusMode {
        var mode = FocusMode(name: "work")
        mode.allowedApps = ["slack"]
        mode.allowedPeople = ["ada lovelace"]
        return mode
    }

    func hold(_ request: NotificationRequest, identity: String = "app") -> DeliveryDecision.Hold? {
        DeliveryDecision.decide(request, identity: identity, context: .init(app: AppSettings(), focus: work)).hold
    }

    @Test func allowedAppsGetThrough() {
        #expect(hold(.make(app: "slack"), identity: "slack") == nil)
        #expect(hold(.make(app: "mail"), identity: "mail") == .focus("work"))
    }

    @Test func allowedPeopleGetThroughCaseInsensitively() {
        #expect(hold(.make(hints: ["category": .string("im.received"), "x-chime-sender": .string("Ada LOVELACE")])) == nil)
        #expect(hold(.make(summary: "ada lovelace", hints: ["category": .string("call.incoming"), "urgency": .byte(0),
                                                             "x-chime-interruption-level": .string("active")])) == nil)
        #expect(hold(.make(hints: ["category": .string("im.received"), "x-chime-sender": .string("Eve")])) == .focus("work"))
    }

    @Test func peopleCountOnlyForCommunication() {
        #expect(hold(.make(summary: "Ada Lovelace", hints: ["category": .string("email.arrived")])) == .focus("work"))
    }

    @Test func communicationSkipsTheScheduledSummary() {
        var app = AppSettings()
        app.delivery = .summary
        let message = DeliveryDecision.decide(.make(hints: ["category": .string("im.received")]), identity: "app", context: .init(app: app))
        #expect(message.hold == nil && message.banner)
    }

    @Test func hiddenPreviews() {
        var app = AppSettings()
        #expect(!DeliveryDecision.decide(.make(), identity: "a", context: .init(app: app, locked: true)).redacted)
        app.previews = .whenUnlocked
        #expect(DeliveryDecision.decide(.make(), identity: "a", context: .init(app: app, locked: true)).redacted)
        #expect(!DeliveryDecision.decide(.make(), identity: "a", context: .init(app: app, locked: false)).redacted)
        app.previews = nil
        #expect(DeliveryDecision.decide(.make(), identity: "a", context: .init(app: app, globalPreviews: .never)).redacted)
    }

    @Test func placeholdersByCategory() {
        #expect(HiddenPreview.body(for: .make(hints: ["category": .string("im.received")])) == "New message")
        #expect(HiddenPreview.body(for: .make(hints: ["category": .string("email.arrived")])) == "New email")
        #expect(HiddenPreview.body(for: .make(hints: ["category": .string("call.incoming")])) == "Incoming call")
        #expect(HiddenPreview.body(for: .make()) == "Notification")
        #expect(HiddenPreview.body(for: .make(hints: ["x-chime-hidden-preview-body": .string("Secret")])) == "Secret")
    }
}

@Suite struct SoundChoiceTests {
    let settings = SoundSettings()

    func choice(_ hints: [String: BusValue], app: AppSettings = DecisionTableTests.trusting) -> SoundChoice? {
        let request = NotificationRequest.make(hints: hints)
        let decision = DeliveryDecision.decide(request, identity: "app", context: .init(app: app))
        return SoundChoice.choose(for: request, decision: decision, settings: settings)
    }

    @Test func eachLevelHasItsSound() {
        #expect(choice(["urgency": .byte(0)]) == nil)
        #expect(choice([:])?.event == "message-new-instant")
        #expect(choice(["urgency": .byte(2)], app: AppSettings())?.event == "chime-time-sensitive")
        #expect(choice(["x-chime-interruption-level": .string("critical")])?.event == "chime-critical")
    }

    @Test func soundNameAndFileAreUsedWithTheLevelAsFallback() {
        let named = choice(["sound-name": .string("bell"), "sound-file": .string("/x.oga")])
        #expect(named == SoundChoice(file: "/x.oga", event: "bell", fallback: "message-new-instant", level: .active))
    }

    @Test func suppressedAndSoundsOffAreSilent() {
        #expect(choice(["suppress-sound": .bool(true)]) == nil)
        var app = DecisionTableTests.trusting
        app.sounds = false
        #expect(choice([:], app: app) == nil)
        #expect(choice(["x-chime-interruption-level": .string("critical")], app: app) != nil, "critical plays regardless")
    }

    @Test func aBurstPlaysOneSoundUnlessSomethingMoreUrgentComes() {
        var throttle = SoundThrottle()
        let admitted = [(InterruptionLevel.active, Int64(0)), (.active, 10), (.active, 999), (.critical, 1_000),
                        (.timeSensitive, 1_500), (.active, 2_000)].map { level, ms in
            throttle.admit(level, at: .at(ms), gap: 1_000)
        }
        #expect(admitted == [true, false, false, true, false, true])
    }
}

/// What used to be settled around the decision is decided in it: repeats, the sound gap, the
/// time-sensitive budget and a notification the person asked to see again.
@Suite struct DecisionLedgerTests {
    static let app = DecisionTableTests.trusting

    @Test func aRepeatMergesSilentlyUnlessItMustGetThrough() {
        let again = DeliveryDecision.decide(.make(app: "app"), identity: "app", context: .init(app: Self.app, repeats: true))
        #expect(again.mergesIntoRepeat && again.banner && !again.sound)
        let urgent = DeliveryDecision.decide(DecisionTableTests.request(.timeSensitive), identity: "app",
                                             context: .init(app: Self.app, repeats: true))
        #expect(!urgent.mergesIntoRepeat && urgent.sound, "time-sensitive is never merged")
        let replacing = DeliveryDecision.decide(.make(app: "app"), identity: "app",
                                                context: .init(app: Self.app, replacing: .presented, repeats: true))
        #expect(!replacing.mergesIntoRepeat, "a replacement replaces; it repeats nothing")
    }

    @Test func theLedgerKeepsOneSoundForABurst() {
        var ledger = DeliveryDecision.Ledger()
        let sounds = [(InterruptionLevel.active, Int64(0)), (.active, 500), (.critical, 600), (.active, 1_700)].map { level, ms in
            DeliveryDecision.decide(DecisionTableTests.request(level), identity: "app",
                                    context: .init(app: Self.app, now: .at(ms), soundGap: 1_000), ledger: &ledger).sound
        }
        #expect(sounds == [true, false, true, true])
    }

    @Test func theBudgetCountsAndTheOneOverItArrivesAsActive() {
        var budget = TimeSensitiveBudget(perHour: 2, recent: [0])
        let second = DeliveryDecision.decide(DecisionTableTests.request(.timeSensitive), identity: "app",
                                             context: .init(app: Self.app, budget: budget, wall: 1_000))
        #expect(second.level == .timeSensitive && second.budgetChange == .init(wall: 1_000, crosses: false))
        budget.recent.append(1_000)
        let third = DeliveryDecision.decide(DecisionTableTests.request(.timeSensitive), identity: "app",
                                            context: .init(app: Self.app, budget: budget, wall: 2_000))
        #expect(third.level == .active && third.budgetChange == .init(wall: 2_000, crosses: true))
        let hourLater = DeliveryDecision.decide(DecisionTableTests.request(.timeSensitive), identity: "app",
                                                context: .init(app: Self.app, budget: budget, wall: 3_600_500))
        #expect(hourLater.level == .timeSensitive, "the first went out of the hour")
        budget.exempt = true
        budget.recent = [1, 2, 3]
        let exempt = DeliveryDecision.decide(DecisionTableTests.request(.timeSensitive), identity: "app",
                                             context: .init(app: Self.app, budget: budget, wall: 4))
        #expect(exempt.level == .timeSensitive && exempt.budgetChange == nil)
    }

    @Test func whatThePersonAskedToSeeShowsWhateverHoldsIt() {
        var app = Self.app
        app.banners = false
        let asked = DeliveryDecision.decide(.make(app: "app"), identity: "app",
                                            context: .init(app: app, focus: FocusMode(name: "dnd"), onRequest: true))
        #expect(asked.banner && asked.hold == nil && asked.drop == nil)
    }
}

/// Each outcome with its reasons (design section 22): the decision says why, in order, naming
/// the setting that made it.
@Suite struct DecisionReasonTests {
    static func decide(_ request: NotificationRequest, app: AppSettings = AppSettings(), focus: FocusMode? = nil,
                       context change: (inout DeliveryDecision.Context) -> Void = { _ in }) -> DeliveryDecision {
        var context = DeliveryDecision.Context(app: app, focus: focus)
        change(&context)
        return DeliveryDecision.decide(request, identity: "Slack", context: context)
    }

    @Test func presentedHeldQuietAndDropped() {
        let plain = Self.decide(.make(app: "Slack"))
        #expect(plain.reasons.map(\.text) == ["level active: urgency normal"])

        var work = FocusMode(name: "work")
        work.allowsTimeSensitive = false
        let held = Self.decide(.make(app: "Slack", hints: ["urgency": .byte(2)]), focus: work)
        #expect(held.reasons.map(\.text) == ["level time-sensitive: urgency critical", "held: Focus Work does not allow Slack"])

        var quietApp = AppSettings()
        quietApp.banners = false
        #expect(Self.decide(.make(app: "Slack"), app: quietApp).reasons.map(\.text).contains("no banner: Slack has banners = false"))

        var summary = AppSettings()
        summary.delivery = .summary
        #expect(Self.decide(.make(app: "Slack"), app: summary).reasons.map(\.text).last == "held for the scheduled summary: Slack has delivery = summary")

        var denied = AppSettings()
        denied.authorization = .denied
        #expect(Self.decide(.make(app: "Slack"), app: denied).reasons.map(\.text).last == "dropped: Slack is turned off (authorization = denied)")

        let clamped = Self.decide(.make(app: "Slack", hints: ["x-chime-interruption-level": .string("critical")]))
        #expect(clamped.reasons.map(\.text).first == "level time-sensitive: critical needs critical-alerts, which Slack does not have")
    }

    /// Design section 21: a volume key's OSD (`notify-send -u low` with a stack tag and a value)
    /// shows at once, updated in place, silent, not kept, never unread, whatever Focus is on.
    @Test func feedbackThePersonCausedShowsAtOnceAndIsNotKept() {
        let osd = NotificationRequest.make(app: "notify-send", summary: "Volume", hints: [
            "urgency": .byte(0), "value": .int32(40), "x-dunst-stack-tag": .string("volume")])
        var dnd = FocusMode(name: "dnd")
        dnd.allowsTimeSensitive = false
        var summary = AppSettings()
        summary.delivery = .summary
        let shown = Self.decide(osd, app: summary, focus: dnd) {
            $0.rateLimit = CenterSettings.RateLimit(burst: 0, perMinute: 0)
            $0.cooling = .init(banner: 3, bannerLevel: .active)
        }
        #expect(shown.feedback && shown.banner && !shown.sound && shown.hold == nil)
        #expect(!shown.inCenter && !shown.unread && shown.rateLimited == .admitted && shown.takesOver == nil)
        #expect(shown.reasons.map(\.text) == ["level passive: urgency low",
                                  "feedback you caused (a stack tag and a value): shown at once, silent, not kept in the center"])
        let pressedAgain = Self.decide(osd) { $0.replacing = .presented }
        #expect(pressedAgain.banner && !pressedAgain.sound)
        #expect(!Self.decide(.make(app: "notify-send", hints: ["value": .int32(40)])).feedback, "a progress bar without a tag is news")
        var quiet = AppSettings()
        quiet.banners = false
        #expect(!Self.decide(osd, app: quiet).banner, "banners = false still holds")
    }

    @Test func replacedRefusedAndDroppedCloseAtOnce() {
        let replaced = Self.decide(.make(app: "Slack", replaces: 4)) { $0.replacing = .presented }
        #expect(replaced.reasons.map(\.text).contains("banner: replaces one of Slack's in place") && !replaced.interrupts)
        let limit = CenterSettings.RateLimit(burst: 1, perMinute: 1, action: .refuse)
        var ledger = DeliveryDecision.Ledger()
        var context = DeliveryDecision.Context(app: AppSettings(), rateLimit: limit)
        let first = DeliveryDecision.decide(.make(app: "Slack"), identity: "Slack", context: context, ledger: &ledger)
        let second = DeliveryDecision.decide(.make(app: "Slack"), identity: "Slack", context: context, ledger: &ledger)
        #expect(first.refusal == nil)
        #expect(second.refusal == "Slack sent more than 1 notifications at once; try again later")
        context.rateLimit?.action = .quiet
        let quiet = DeliveryDecision.decide(.make(app: "Slack"), identity: "Slack", context: context, ledger: &ledger)
        #expect(quiet.refusal == nil && !quiet.banner && quiet.reasons.map(\.text).contains("quiet: over Slack's rate limit"))
    }

    @Test func mergedTakenOverKeptUnderAHigherOneAndMuted() {
        #expect(Self.decide(.make(app: "Slack")) { $0.repeats = true }.reasons.map(\.text).contains { $0.hasPrefix("merged:") })
        let takesOver = Self.decide(.make(app: "Slack")) { $0.cooling = .init(banner: 7, bannerLevel: .active) }
        #expect(takesOver.takesOver == 7 && takesOver.reasons.map(\.text).contains("banner: updates its thread's banner, within the thread's cooldown"))
        let under = Self.decide(.make(app: "Slack")) { $0.cooling = .init(banner: 7, bannerLevel: .timeSensitive) }
        #expect(!under.banner && under.takesOver == nil && under.reasons.map(\.text).contains("quiet: its thread's banner is of a higher level and keeps the screen"))
        #expect(Self.decide(.make(app: "Slack")) { $0.muted = true }.reasons.map(\.text).contains("no sound: sounds are muted"))
        let sharing = FocusMode.builtIn.first { $0.name == FocusMode.sharing }!
        let alarm = Self.decide(.make(app: "Slack", hints: ["x-chime-interruption-level": .string("critical")]),
                                app: DecisionTableTests.trusting, focus: sharing)
        #expect(alarm.redacted && alarm.reasons.map(\.text).contains("preview hidden: Focus Screen Sharing hides previews"))
        #expect(alarm.reasons.map(\.text).contains("stays until closed: critical"))
    }
}
