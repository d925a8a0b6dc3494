/// A notification as the notification portal hands it to its backend
/// (`org.freedesktop.impl.portal.Notification.AddNotification`, versions 1 and 2), read and
/// checked, and mapped to Chime's request (design section 19). Files the portal passes as
/// descriptors (an icon, a sound) are read at the edge; they arrive here as checked paths.
public struct PortalNotification: Equatable, Sendable {
    public enum Priority: String, CaseIterable, Sendable {
        case low, normal, high, urgent
    }

    public enum DisplayHint: String, CaseIterable, Sendable {
        case transient, tray, persistent
        case hideOnLockScreen = "hide-on-lock-screen"
        case hideContentOnLockScreen = "hide-content-on-lock-screen"
        case showAsNew = "show-as-new"
    }

    public enum Sound: Equatable, Sendable {
        case `default`, silent
        /// A file the edge read from the portal's descriptor and checked.
        case file(String)
    }

    public struct Button: Equatable, Sendable {
        public var label: String
        public var action: String
        public var target: BusValue?
        public var purpose: String?
    }

    public var title = ""
    /// Chime's markup: the edge makes it from `markup-body` (sanitised as Notify's body is) or
    /// else `body` (plain text, escaped).
    public var body = ""
    /// A themed icon name, or a file the edge wrote from the portal's descriptor or bytes.
    public var iconName: String?
    public var iconFile: String?
    public var sound: Sound?
    public var priority = Priority.normal
    public var defaultAction: String?
    public var defaultActionTarget: BusValue?
    public var buttons: [Button] = []
    public var displayHints: Set<DisplayHint> = []
    public var category: String?

    /// The categories the portal names (v2), and the old spellings taken as them.
    public static let categories = [
        "im.received", "alarm.ringing", "call.incoming", "call.ongoing", "call.unanswered", "weather.warning.extreme",
        "cellbroadcast.danger.presidential", "cellbroadcast.danger.extreme", "cellbroadcast.danger.severe",
        "cellbroadcast.public-safety", "cellbroadcast.amber-alert", "cellbroadcast.test", "os.battery.low",
        "browser.web-notification",
    ]
    static let oldCategories = ["im.message": "im.received", "call.missed": "call.unanswered",
                                "weather.warning-extreme": "weather.warning.extreme"]
    public static let purposes = [
        "system.custom-alert", "im.reply-with-text", "call.accept", "call.decline", "call.hang-up",
        "call.enable-speakerphone", "call.disable-speakerphone",
    ]

    public init() {}

    /// Reads the keys besides the icon and the sound (which carry descriptors: the edge reads
    /// them). An unknown priority, display hint, category or button purpose is refused, as the
    /// portal's specification says; unknown keys are left out. What Notify bounds is bounded the
    /// same (`NotifyLimits`): buttons past the actions Notify keeps, and those whose action is
    /// over its key's limit, are left out, labels cut, a longer category dropped, each said in
    /// `problems`; an action's target over a string hint's size is refused, since it goes back
    /// to the app as it came.
    public init(decoding entries: [String: BusValue], problems: inout [String]) throws(RequestError) {
        title = entries["title"]?.string ?? ""
        if let text = entries["priority"]?.string {
            guard let priority = Priority(rawValue: text) else {
                throw .invalidArgument("'\(text)' is not a priority: " + Priority.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.priority = priority
        }
        defaultAction = entries["default-action"]?.string
        if let action = defaultAction, action.utf8.count > NotifyLimits.actionKeyBytes {
            problems.append("default-action of \(action.utf8.count) bytes is over \(NotifyLimits.actionKeyBytes); it is left out")
            defaultAction = nil
        }
        defaultActionTarget = try Self.bounded(target: entries["default-action-target"], of: "default-action-target")
        for hint in entries["display-hint"]?.strings ?? [] {
            let name = hint == "hide-on-lockscreen" ? "hide-on-lock-screen" : hint
            guard let known = DisplayHint(rawValue: name) else {
                throw .invalidArgument("'\(hint)' is not a display hint: " + DisplayHint.allCases.map(\.rawValue).joined(separator: ", "))
            }
            displayHints.insert(known)
        }
        if displayHints.isSuperset(of: [.transient, .tray]) {
            throw .invalidArgument("a notification cannot be both transient and tray")
        }
        if let text = entries["category"]?.string, text.utf8.count > NotifyLimits.hintStringBytes {
            problems.append("category of \(text.utf8.count) bytes is over \(NotifyLimits.hintStringBytes); it is left out")
        } else if let text = entries["category"]?.string {
            let name = Self.oldCategories[text] ?? text
            guard Self.categories.contains(name) || name.hasPrefix("x-") else {
                throw .invalidArgument("'\(text)' is not a category the portal knows, nor one starting with x-")
            }
            category = name
        }
        let records = entries["buttons"]?.records ?? []
        // The default action is one of the actions Notify keeps.
        let kept = NotifyLimits.actions - 1
        if records.count > kept { problems.append("\(records.count) buttons sent; the first \(kept) are kept") }
        for entry in records.prefix(kept) {
            let purpose = entry["purpose"]?.string
            if let purpose, !Self.purposes.contains(purpose), !purpose.hasPrefix("x-") {
                throw .invalidArgument("'\(purpose)' is not a button purpose: " + Self.purposes.joined(separator: ", "))
            }
            guard let action = entry["action"]?.string, !action.isEmpty else {
                throw .invalidArgument("a button needs an action")
            }
            guard action.utf8.count <= NotifyLimits.actionKeyBytes else {
                problems.append("a button's action of \(action.utf8.count) bytes is over \(NotifyLimits.actionKeyBytes); that button is left out")
                continue
            }
            var label = entry["label"]?.string ?? ""
            guard !label.isEmpty || purpose != nil else { throw .invalidArgument("button '\(action)' needs a label or a purpose") }
            if let cut = label.cut(toUTF8: NotifyLimits.actionLabelBytes) {
                problems.append("a button's label of \(label.utf8.count) bytes cut to \(NotifyLimits.actionLabelBytes)")
                label = cut
            }
            let target = try Self.bounded(target: entry["target"], of: "button '\(action)''s target")
            buttons.append(Button(label: label, action: action, target: target, purpose: purpose))
        }
    }

    /// An action's target, refused over a string hint's size.
    private static func bounded(target: BusValue?, of what: String) throws(RequestError) -> BusValue? {
        guard let target, target.wireSizeBound > NotifyLimits.hintStringBytes else { return target }
        throw .invalidArgument("\(what) takes \(target.wireSizeBound) bytes, over \(NotifyLimits.hintStringBytes)")
    }

    /// The request the attention model decides on, for `appID` (the identity the portal vouches
    /// for). Priority: low is passive, normal active, high time-sensitive where the app may send
    /// them (the decision lowers it otherwise), urgent time-sensitive; `tray` is passive.
    public func request(appID: String, appName: String, replacing: UInt32 = 0) -> NotificationRequest {
        var hints = NotificationHints()
        hints.desktopEntry = appID.isEmpty ? nil : appID
        hints.category = category
        switch priority {
        case .low: hints.urgency = .low
        case .normal: hints.urgency = .normal
        case .high:
            hints.urgency = .normal
            hints.interruptionLevel = .timeSensitive
        case .urgent:
            hints.urgency = .critical
            hints.interruptionLevel = .timeSensitive
        }
        if displayHints.contains(.tray) { hints.interruptionLevel = .passive }
        hints.transient = displayHints.contains(.transient)
        hints.resident = displayHints.contains(.persistent)
        hints.hidesPreviewWhenLocked = displayHints.contains(.hideContentOnLockScreen) || displayHints.contains(.hideOnLockScreen)
        hints.interrupt = displayHints.contains(.showAsNew)
        switch sound {
        case .silent?: hints.suppressSound = true
        case .file(let path)?: hints.soundFile = path
        case .default?, nil: break
        }
        hints.imagePath = iconFile
        var actions: [Action] = []
        if defaultAction != nil { actions.append(Action(key: Action.defaultKey, label: "Open")) }
        for button in buttons {
            if button.purpose == "im.reply-with-text" {
                actions.append(Action(key: Action.inlineReplyKey, label: button.label.isEmpty ? "Reply" : button.label))
            } else if button.purpose == "system.custom-alert", button.label.isEmpty {
                continue
            } else {
                actions.append(Action(key: button.action, label: button.label.isEmpty ? Self.label(purpose: button.purpose) : button.label))
            }
        }
        return NotificationRequest(appName: appName, replacesID: replacing, appIcon: iconName, summary: title,
                                   body: body, actions: actions, hints: hints)
    }

    /// The words a button with a purpose and no label shows.
    static func label(purpose: String?) -> String {
        switch purpose {
        case "call.accept": "Accept"
        case "call.decline": "Decline"
        case "call.hang-up": "Hang Up"
        case "call.enable-speakerphone": "Speaker On"
        case "call.disable-speakerphone": "Speaker Off"
        default: "Open"
        }
    }

    /// The portal's action and target for a key Chime's request uses (`request`), to say back in
    /// ActionInvoked: the default action's name for "default", the button's otherwise.
    public func portalAction(for key: String) -> (action: String, target: BusValue?)? {
        if key == Action.defaultKey, let defaultAction { return (defaultAction, defaultActionTarget) }
        if key == Action.inlineReplyKey, let button = buttons.first(where: { $0.purpose == "im.reply-with-text" }) {
            return (button.action, button.target)
        }
        return buttons.first { $0.action == key }.map { ($0.action, $0.target) }
    }
}
