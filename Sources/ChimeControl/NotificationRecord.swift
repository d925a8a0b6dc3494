import ChimeCore

/// A notification as the control interface shows it (an a{sv}): what presenters,
/// bars and chimectl read. docs/control-interface.md lists the keys.
public enum NotificationRecord {
    /// `asPresented`: what a banner may show, so hidden previews are redacted; the center
    /// (List) keeps the full text.
    public static func busValue(_ notification: Notification, asPresented: Bool = false) -> BusValue {
        .vardict(entries(notification, asPresented: asPresented))
    }

    /// A center entry's record: every field the notification's has (from `open`, the same one
    /// while it is still open, when given), then the center's own over the same names.
    public static func entries(_ entry: CenterEntry, open: Notification? = nil) -> [(String, BusValue)] {
        let center = entry.fields
        let names = Set(center.map(\.0))
        return entries(open ?? entry.notification).filter { !names.contains($0.0) } + center
    }

    /// The keys that carry what a hidden preview hides, besides the summary and body it
    /// replaces: a redacted record (here, or the center's as shown, `History` with `as-shown`)
    /// has none of them.
    public static let previewKeys: Set<String> = ["person", "image-path", "image-data", "avatar-path", "avatar-data", "attachments"]

    /// The record's entries, for one that adds the center's own (`Show`).
    public static func entries(_ notification: Notification, asPresented: Bool = false) -> [(String, BusValue)] {
        let request = notification.request
        let hints = request.hints
        let redacted = asPresented && notification.decision?.redacted == true
        var entries: [(String, BusValue)] = [
            ("id", .uint32(notification.id)),
            ("app-name", .string(request.appName)),
            ("app-identity", .string(request.appIdentity)),
            ("summary", .string(redacted ? request.appName : request.summary)),
            ("body", .string(redacted ? HiddenPreview.body(for: request) : request.body)),
            ("actions", .stringArray(request.actions.flatMap { [$0.key, $0.label] })),
            ("urgency", .byte(notification.urgency.rawValue)),
            ("level", .string((notification.decision?.level ?? InterruptionPolicy.requestedLevel(request)).rawValue)),
            ("state", .string(notification.state.name)),
            ("expire-timeout", .int32(request.expireTimeout)),
            ("sender", .string(notification.sender)),
        ]
        func add(_ key: String, _ value: BusValue?) {
            if let value { entries.append((key, value)) }
        }
        // Flags appear only when true: every entry costs marshalling on every signal.
        func flag(_ key: String, _ on: Bool) { if on { entries.append((key, .bool(true))) } }
        flag("redacted", redacted)
        flag("resident", hints.resident)
        flag("transient", hints.transient)
        flag("action-icons", hints.actionIcons)
        // A presented one that never expires by itself: its banner says how long it has been up.
        flag("stays", notification.state == .presented && notification.expires == nil)
        if notification.arrived != 0 { add("created", .int64(notification.arrived)) }
        if case .heldByFocus(let focus) = notification.state { add("held-by", .string(focus)) }
        if case .snoozed(let until) = notification.state { add("snoozed-until", .int64(until)) }
        if notification.repeatCount > 1 { add("repeat-count", .uint32(UInt32(clamping: notification.repeatCount))) }
        if notification.threadCount > 1 { add("thread-count", .uint32(UInt32(clamping: notification.threadCount))) }
        add("sound", notification.decision.map { .bool($0.sound) })
        add("app-icon", request.appIcon.map { .string($0) })
        add("category", hints.category.map { .string($0) })
        add("desktop-entry", hints.desktopEntry.map { .string($0) })
        add("display-app-name", hints.displayAppName.map { .string($0) })
        add("origin", hints.originName.map { .string($0) })
        if !redacted {
            // A communication notification's image is the sender's avatar, shown instead of the app icon.
            add("person", InterruptionPolicy.person(request).map { .string($0) })
            add(InterruptionPolicy.isCommunication(request) ? "avatar-path" : "image-path", hints.imagePath.map { .string($0) })
            add(InterruptionPolicy.isCommunication(request) ? "avatar-data" : "image-data", hints.imageData?.busValue)
            if !hints.attachments.isEmpty { add("attachments", Attachment.records(hints.attachments)) }
        }
        add("progress", hints.progress.map { .int32($0) })
        add("stack-tag", hints.stackTag.map { .string($0) })
        add("relevance", hints.relevance.map { .double($0) })
        add("thread", hints.thread.map { .string($0) })
        add("reply-placeholder", hints.replyPlaceholder.map { .string($0) })
        add("reply-submit-text", hints.replySubmitText.map { .string($0) })
        if !hints.destructiveActions.isEmpty { add("destructive-actions", .stringArray(hints.destructiveActions)) }
        if let rules = notification.decision?.rules, !rules.isEmpty { add("rules", .stringArray(rules)) }
        for (key, value) in Reason.fields(notification.decision?.reasons ?? []) { add(key, value) }
        if let offers = notification.decision?.offers, !offers.isEmpty {
            add("offers", .array(elementSignature: "a{sv}", offers.map { offer in
                .vardict([("text", .string(offer.text)), ("actions", .stringArray(offer.actions.flatMap { [$0.key, $0.label] }))])
            }))
        }
        return entries
    }
}
