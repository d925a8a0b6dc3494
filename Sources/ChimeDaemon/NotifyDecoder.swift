import ChimeCore
import ChimeDBus
import ChimeGLib

/// The edge of the freedesktop interface: turns Notify's arguments into a request the core
/// can trust. Malformed calls are refused; a bad part (a hint, an image) is dropped and
/// logged while the notification is still delivered.
///
/// Read once, in two steps: `read` makes the call's one value (texts, actions and hints typed
/// and bounded), which every later step takes; `finish` checks what names files or holds
/// markup (disk reads, GMarkup) and says what was dropped. Between them Intake learns the
/// call's size.
public struct NotifyDecoder: Sendable {
    /// A call read (`read`): its request, and what was cut or dropped, said once it is finished.
    struct Read: Sendable {
        var request: NotificationRequest
        var problems: [String]
        /// The size of the call as it came (a large one leaves memory for malloc to hand back).
        var bytes: Int
    }

    private let sanitizer = MarkupSanitizer { src in try? ImageReference.check(src).get() }

    public init() {}

    /// Reads Notify's arguments (susssasa{sv}i; the object server checked the signature)
    /// straight off the message, with no BusValue tree for the arguments themselves.
    func read(_ message: Message) throws(RequestError) -> Read { try read(ArgumentReader(message)) }

    /// The call's one value: what needs no file and no markup parser.
    func read(_ reader: ArgumentReader) throws(RequestError) -> Read {
        let call = try NotifyArguments(reader)
        let appName = NotifyArguments.text(call.appName), appIcon = NotifyArguments.text(call.appIcon)
        let summary = NotifyArguments.text(call.summary), body = NotifyArguments.text(call.body)
        let actions = (pairs: call.actions(upTo: NotifyLimits.actions + 1), count: call.actionStrings)
        let (replacesID, rawHints, timeout) = (call.replacesID, call.hints, call.timeout)
        var hintProblems: [String] = []
        var problems: [String] = []
        let kept = actions.count > 2 * NotifyLimits.actions || actions.pairs.contains(where: Self.isOverLimit)
            ? Self.bounded(actions.pairs, count: actions.count / 2, problems: &problems) : actions.pairs
        // The hints go straight into the request: decoded into a local first, they were
        // copied into it (all thirty fields) and the local destroyed, every Notify.
        var request = NotificationRequest(
            appName: Self.truncated(appName, to: NotifyLimits.appNameBytes, what: "app_name", problems: &problems),
            replacesID: replacesID,
            appIcon: appIcon.isEmpty ? nil : appIcon,
            summary: Self.truncated(summary, to: NotifyLimits.summaryBytes, what: "summary", problems: &problems),
            body: Self.truncated(body, to: NotifyLimits.bodyBytes, what: "body", problems: &problems),
            actions: kept,
            hints: NotificationHints(decoding: rawHints, problems: &hintProblems),
            expireTimeout: timeout)
        if !hintProblems.isEmpty { problems += hintProblems.map { $0 + "; ignored" } }
        // Rare: changing a hint copies the request's fields once.
        if let entry = request.hints.desktopEntry, !Self.isDesktopFileID(entry) {
            request.hints.desktopEntry = nil
            problems.append("desktop-entry is not the name of a desktop file (it has a '/' or a control character, or is over 255 bytes); the app name identifies the app")
        }
        // What a browser's urgency critical means: stay until the person acts (`StayOnScreen`).
        if StayOnScreen.asks(request) { request.hints.resident = true }
        return Read(request: request, problems: problems, bytes: call.messageBytes.count)
    }

    /// The request the core takes: its markup sanitised, the files it names checked, and what
    /// was cut or dropped said in the log.
    func finish(_ read: Read) -> NotificationRequest {
        var (request, problems) = (read.request, read.problems)
        if let icon = request.appIcon {
            let usable = checked(icon, as: "app_icon", problems: &problems)
            if usable != icon { request.appIcon = usable }
        }
        let body = sanitizer.sanitize(request.body)
        if body != request.body { request.body = body }
        checkFiles(of: &request, problems: &problems)
        say(problems, of: request)
        return request
    }

    /// A body from elsewhere than Notify (the portal's `markup-body`), bounded and sanitised as
    /// Notify's is.
    func sanitizedBody(_ body: String) -> String {
        var problems: [String] = []
        return sanitizer.sanitize(Self.truncated(body, to: NotifyLimits.bodyBytes, what: "body", problems: &problems))
    }

    /// A summary from elsewhere than Notify (the portal's `title`), bounded as Notify's is.
    func bounded(summary: String) -> String {
        var problems: [String] = []
        return Self.truncated(summary, to: NotifyLimits.summaryBytes, what: "summary", problems: &problems)
    }

    /// A notification put back from the center (restored, back from a snooze, held across a
    /// restart) had its files checked when it came; they may have changed since (gone, replaced
    /// by a FIFO), so they are checked again before anyone loads them.
    public func rechecked(_ notification: Notification) -> Notification {
        var request = notification.request
        var problems: [String] = []
        if let icon = request.appIcon {
            let usable = checked(icon, as: "app_icon", problems: &problems)
            if usable != icon { request.appIcon = usable }
        }
        if request.body.firstByteRange(of: "<img ") != nil {
            let body = sanitizer.sanitize(request.body)
            if body != request.body { request.body = body }
        }
        checkFiles(of: &request, problems: &problems)
        guard request != notification.request else { return notification }
        say(problems, of: request)
        var notification = notification
        notification.request = request
        return notification
    }

    private func checkFiles(of request: inout NotificationRequest, problems: inout [String]) {
        if let path = request.hints.imagePath {
            let usable = checked(path, as: "image-path", problems: &problems)
            if usable != path { request.hints.imagePath = usable }
        }
        if let reference = request.hints.soundFile {
            switch SoundFile.check(reference) {
            case .success(let path): if path != reference { request.hints.soundFile = path }
            case .failure(let problem):
                request.hints.soundFile = nil
                problems.append("sound-file: \(problem); the level's sound plays instead")
            }
        }
    }

    private func say(_ problems: [String], of request: NotificationRequest) {
        for problem in problems {
            Log.warningOnce(key: request.appIdentity + problem, "\(request.appIdentity): \(problem)")
        }
    }

    private func checked(_ reference: String, as name: String, problems: inout [String]) -> String? {
        guard reference.utf8.count <= NotifyLimits.hintStringBytes else {
            problems.append("\(name) of \(reference.utf8.count) bytes is over \(NotifyLimits.hintStringBytes); the notification goes without it")
            return nil
        }
        switch ImageReference.check(reference) {
        case .success(let usable): return usable
        case .failure(let problem):
            problems.append("\(name): \(problem); the notification goes without it")
            return nil
        }
    }

    /// A desktop file's name (`org.gnome.Nautilus`, `firefox.desktop`): at most 255 bytes, no
    /// '/' (it is a file name, not a path) and no control characters. Anything else would name
    /// the app in the center, in apps.state and to docks.
    static func isDesktopFileID(_ entry: String) -> Bool {
        // Over the bytes in place: this runs on every Notify that names its desktop file.
        entry.withUTF8Bytes { bytes in
            !bytes.isEmpty && bytes.count <= NotifyLimits.appNameBytes
                && !bytes.contains { $0 == UInt8(ascii: "/") || $0 < 0x20 || $0 == 0x7F }
        }
    }

    /// Cuts at a Unicode scalar boundary, never inside a UTF-8 sequence.
    static func truncated(_ text: String, to limit: Int, what: String, problems: inout [String]) -> String {
        guard let cut = text.cut(toUTF8: limit) else { return text }
        problems.append("\(what) of \(text.utf8.count) bytes cut to \(limit)")
        return cut
    }

    private static func isOverLimit(_ action: Action) -> Bool {
        action.key.utf8.count > NotifyLimits.actionKeyBytes || action.label.utf8.count > NotifyLimits.actionLabelBytes
    }

    /// The first `NotifyLimits.actions` actions whose keys fit, labels cut; `count` is how many came.
    /// Rare, so out of the way of the usual call.
    @inline(never)
    private static func bounded(_ actions: [Action], count: Int, problems: inout [String]) -> [Action] {
        var kept: [Action] = []
        for action in actions where kept.count < NotifyLimits.actions {
            guard action.key.utf8.count <= NotifyLimits.actionKeyBytes else {
                problems.append("an action key of \(action.key.utf8.count) bytes is over \(NotifyLimits.actionKeyBytes); that action is dropped")
                continue
            }
            var action = action
            action.label = truncated(action.label, to: NotifyLimits.actionLabelBytes, what: "action label", problems: &problems)
            kept.append(action)
        }
        if count > NotifyLimits.actions { problems.append("\(count) actions sent; the first \(NotifyLimits.actions) are kept") }
        return kept
    }
}
