/// The sound settings from `[sounds]`.
public struct SoundSettings: Equatable, Sendable {
    /// The XDG sound theme; Chime's own inherits freedesktop's.
    public var theme = "chime"
    public var activeEvent = "message-new-instant"
    public var timeSensitiveEvent = "chime-time-sensitive"
    public var criticalEvent = "chime-critical"
    /// Decibels, as libcanberra takes them: 0 is unchanged, -6 half as loud.
    public var volume = 0.0
    /// Muted from the config; `chimectl mute` overrides it and is kept across restarts.
    public var muted = false
    /// Within this many milliseconds of a sound, another plays only if it is more urgent.
    public var minimumGap: Int64 = 1_000

    public init() {}

    public func event(for level: InterruptionLevel) -> String? {
        switch level {
        case .passive: nil
        case .active: activeEvent
        case .timeSensitive: timeSensitiveEvent
        case .critical: criticalEvent
        }
    }
}

/// What to play for one notification (chimed(1)'s sound section).
public struct SoundChoice: Equatable, Sendable {
    /// A checked local file (`sound-file`), played in preference to any event.
    public var file: String?
    /// An event id from the theme (`sound-name`, else the level's).
    public var event: String?
    /// Played when `file` or `event` cannot be: the level's own event.
    public var fallback: String?
    public var level: InterruptionLevel

    public init(file: String? = nil, event: String? = nil, fallback: String? = nil, level: InterruptionLevel) {
        self.file = file
        self.event = event
        self.fallback = fallback
        self.level = level
    }

    /// nil when the decision says no sound.
    public static func choose(for request: NotificationRequest, decision: DeliveryDecision, settings: SoundSettings) -> SoundChoice? {
        guard decision.sound, let levelEvent = settings.event(for: decision.level) else { return nil }
        if let chosen = decision.chosenSound, decision.level != .critical {
            let isFile = chosen.hasPrefix("/")
            return SoundChoice(file: isFile ? chosen : nil, event: isFile ? levelEvent : chosen, fallback: levelEvent, level: decision.level)
        }
        let named = request.hints.soundName.flatMap { $0.isEmpty ? nil : $0 }
        return SoundChoice(file: request.hints.soundFile, event: named ?? levelEvent, fallback: levelEvent, level: decision.level)
    }
}

/// One sound for a burst: within the minimum gap of the last sound, only a more urgent level plays.
public struct SoundThrottle: Sendable {
    private var last: (at: Instant, level: InterruptionLevel)?

    public init() {}

    public mutating func admit(_ level: InterruptionLevel, at now: Instant, gap: Int64) -> Bool {
        if let last, now.milliseconds - last.at.milliseconds < gap, level <= last.level { return false }
        last = (now, level)
        return true
    }
}
