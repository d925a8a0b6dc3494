import ChimeCore
import ChimeDBus

/// The edge of the freedesktop interface: turns Notify's arguments into a request the core
/// can trust. Malformed calls are refused; a bad part (a hint, an image) is dropped and
/// logged while the notification is still delivered.
public struct NotifyDecoder: Sendable {
    /// Longer texts are cut: no one reads them in a banner, and every presenter receives them.
    public static let maximumSummaryBytes = 1024
    public static let maximumBodyBytes = 64 * 1024
    /// An app's name, or its desktop-entry, names it in the center, in apps.state and to docks.
    public static let maximumAppNameBytes = 255

    private let sanitizer = MarkupSanitizer { src in try? ImageReference.check(src).get() }

    public init() {}

    /// Reads Notify's arguments (susssasa{sv}i; the object server checked the signature)
    /// straight off the message, with no BusValue tree for the arguments themselves.
    public func decode(_ message: Message) throws(RequestError) -> NotificationRequest {
        try decode(ArgumentReader(message))
    }

    /// The same, from a reader at the call's start (the bus thread's, `NotifyFirstLook.call`).
    public func decode(_ call: ArgumentReader) throws(RequestError) -> NotificationRequest {
        var reader = call
        guard let appName = reader.string(), let replacesID = reader.uint32(), let appIcon = reader.string(),
              let summary = reader.string(), let body = reader.string(), let actions = reader.stringPairs(Action.init),
              let rawHints = reader.hints(), let timeout = reader.int32()
        else { throw .invalidArgument("Notify takes (susssasa{sv}i)") }
        guard actions.count.isMultiple(of: 2) else { throw Action.unpaired(actions.count) }
        var hintProblems: [String] = []
        var problems: [String] = []
        // The hints go straight into the request: decoded into a local first, they were
        // copied into it (all thirty fields) and the local destroyed, every Notify.
        var request = NotificationRequest(
            appName: Self.truncated(appName, to: Self.maximumAppNameBytes, what: "app_name", problems: &problems),
            replacesID: replacesID,
            appIcon: appIcon.isEmpty ? nil : checked(appIcon, as: "app_icon", problems: &problems),
            summary: Self.truncated(summary, to: Self.maximumSummaryBytes, what: "summary", problems: &problems),
            body: sanitizer.sanitize(Self.truncated(body, to: Self.maximumBodyBytes, what: "body", problems: &problems)),
            actions: actions.pairs,
            hints: NotificationHints(decoding: rawHints, problems: &hintProblems),
            expireTimeout: timeout)
        if !hintProblems.isEmpty { problems += hintProblems.map { $0 + "; ignored" } }
        // Rare: changing a hint copies the request's fields once.
        if let entry = request.hints.desktopEntry, !Self.isDesktopFileID(entry) {
            request.hints.desktopEntry = nil
            problems.append("desktop-entry is not the name of a desktop file (it has a '/' or a control character, or is over 255 bytes); the app name identifies the app")
        }
        checkFiles(of: &request, problems: &problems)
        say(problems, of: request)
        return request
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
        if let path = request.hints.soundFile {
            switch SoundFile.check(path) {
            case .success: break
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
            !bytes.isEmpty && bytes.count <= maximumAppNameBytes
                && !bytes.contains { $0 == UInt8(ascii: "/") || $0 < 0x20 || $0 == 0x7F }
        }
    }

    /// Cuts at a Unicode scalar boundary, never inside a UTF-8 sequence.
    static func truncated(_ text: String, to limit: Int, what: String, problems: inout [String]) -> String {
        guard text.utf8.count > limit else { return text }
        problems.append("\(what) of \(text.utf8.count) bytes cut to \(limit)")
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
        while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil {
            end = text.utf8.index(before: end)
        }
        return String(text[..<end])
    }
}
