/// Which Focus is on and why: screen sharing, a manual choice (with an optional end),
/// inhibitors held by clients, a fullscreen window, or a schedule, in that order. At most one
/// Focus is active.
public struct FocusState: Equatable, Sendable {
    public enum Source: String, Sendable { case manual, inhibitor, schedule, sharing, fullscreen }

    public struct Active: Equatable, Sendable {
        public var name: String
        public var source: Source
        /// Unix ms when a manual Focus ends by itself.
        public var until: Int64?
    }

    public struct Inhibitor: Equatable, Sendable {
        public var cookie: UInt32
        public var focus: String
        public var owner: String
        public var application: String
        public var reason: String
    }

    /// What the person set by hand, kept across restarts until its own end or the next
    /// boundary of its schedule.
    public enum Manual: Equatable, Sendable {
        case on(String, until: Int64?)
        /// Turned off while a schedule was on: stays off until that scheduled span ends. `checked`:
        /// the last minute it was seen still scheduled; the minutes after it are looked at next.
        case offDuringSchedule(String, checked: LocalTime)
    }

    /// Set by hand, or put back after a restart (`restore`).
    public private(set) var manual: Manual?
    public private(set) var inhibitors: [Inhibitor] = []
    private var lastCookie: UInt32 = 0
    /// `chimectl sharing on`: the screen is shared, said by a portal's hook.
    public var sharedByHand = false
    /// The focused window is fullscreen, as the desktop says (`DesktopContext`).
    public var fullscreen = false

    public init() {}

    /// Whether the screen is shared: by hand, or while a client holds KDE's inhibition.
    public var sharing: Bool { sharedByHand || inhibitors.contains { $0.focus == FocusMode.sharing } }

    /// The active Focus at `now`, given the modes from config. Sharing the screen wins over any
    /// other: what is on it is seen by others. A fullscreen window comes after what the person
    /// or an app turned on, before a schedule: it says what they are doing now.
    public func active(modes: [FocusMode], now: Now) -> Active? {
        if sharing { return Active(name: FocusMode.sharing, source: .sharing, until: nil) }
        if case .on(let name, let until)? = manual, until.map({ now.wall < $0 }) ?? true {
            return Active(name: name, source: .manual, until: until)
        }
        if let inhibitor = inhibitors.last(where: { $0.focus != FocusMode.sharing }) {
            return Active(name: inhibitor.focus, source: .inhibitor, until: nil)
        }
        if fullscreen { return Active(name: FocusMode.fullscreen, source: .fullscreen, until: nil) }
        if let scheduled = modes.first(where: { $0.isScheduled(at: now.local) }) {
            if case .offDuringSchedule(let name, _)? = manual, name == scheduled.name { return nil }
            return Active(name: scheduled.name, source: .schedule, until: nil)
        }
        return nil
    }

    /// The Focus the user turned on by hand, kept across restarts.
    public var manualFocus: (name: String, until: Int64?)? {
        if case .on(let name, let until)? = manual { return (name, until) }
        return nil
    }

    public mutating func turnOn(_ name: String, until: Int64?) {
        manual = .on(name, until: until)
    }

    /// Turns off a manual Focus, releases nothing held by clients, and keeps a scheduled
    /// Focus off until its span ends.
    public mutating func turnOff(modes: [FocusMode], now: Now) {
        manual = nil
        if let scheduled = modes.first(where: { $0.isScheduled(at: now.local) }) {
            manual = .offDuringSchedule(scheduled.name, checked: now.local)
        }
    }

    /// What a restart found kept: it holds until `tidy` finds it ended meanwhile.
    public mutating func restore(_ kept: Manual) { manual = kept }

    /// Drops what has run out: a manual Focus past its end, an "off" whose schedule ended at any
    /// minute since it was last seen (chimed may have been stopped across the end).
    public mutating func tidy(modes: [FocusMode], now: Now) {
        switch manual {
        case .on(_, let until?) where now.wall >= until:
            manual = nil
        case .on(let name, _) where !modes.contains(where: { $0.name == name }):
            manual = nil
        case .offDuringSchedule(let name, let checked):
            guard let mode = modes.first(where: { $0.name == name }), mode.isScheduled(from: checked, through: now.local) else {
                manual = nil
                return
            }
            if checked != now.local { manual = .offDuringSchedule(name, checked: now.local) }
        default:
            break
        }
    }

    public mutating func inhibit(focus: String, owner: String, application: String, reason: String) -> UInt32 {
        lastCookie &+= 1
        if lastCookie == 0 { lastCookie = 1 }
        inhibitors.append(Inhibitor(cookie: lastCookie, focus: focus, owner: owner, application: application, reason: reason))
        return lastCookie
    }

    /// Releases one inhibitor; false when the cookie is unknown.
    @discardableResult
    public mutating func uninhibit(_ cookie: UInt32) -> Bool {
        guard let index = inhibitors.firstIndex(where: { $0.cookie == cookie }) else { return false }
        inhibitors.remove(at: index)
        return true
    }

    /// Releases every inhibitor a client held, when it leaves the bus.
    public mutating func release(owner: String) {
        inhibitors.removeAll { $0.owner == owner }
    }
}
