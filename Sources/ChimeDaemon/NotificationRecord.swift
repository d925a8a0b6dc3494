import ChimeCore

/// A notification as the control interface shows it (an a{sv}): what presenters,
/// bars and chimectl read. README.md lists the keys.
enum NotificationRecord {
    static func busValue(_ notification: Notification) -> BusValue {
        let request = notification.request
        let hints = request.hints
        var entries: [(String, BusValue)] = [
            ("id", .uint32(notification.id)),
            ("app-name", .string(request.appName)),
            ("app-identity", .string(request.appIdentity)),
            ("summary", .string(request.summary)),
            ("body", .string(request.body)),
            ("actions", .stringArray(request.actions.flatMap { [$0.key, $0.label] })),
            ("urgency", .byte(notification.urgency.rawValue)),
            ("expire-timeout", .int32(request.expireTimeout)),
            ("resident", .bool(hints.resident)),
            ("transient", .bool(hints.transient)),
            ("action-icons", .bool(hints.actionIcons)),
            ("sender", .string(notification.sender)),
        ]
        func add(_ key: String, _ value: BusValue?) {
            if let value { entries.append((key, value)) }
        }
        add("app-icon", request.appIcon.map { .string($0) })
        add("category", hints.category.map { .string($0) })
        add("desktop-entry", hints.desktopEntry.map { .string($0) })
        add("image-path", hints.imagePath.map { .string($0) })
        add("image-data", hints.imageData?.busValue)
        add("progress", hints.progress.map { .int32($0) })
        add("stack-tag", hints.stackTag.map { .string($0) })
        add("interruption-level", hints.interruptionLevel.map { .string($0.rawValue) })
        add("reply-placeholder", hints.replyPlaceholder.map { .string($0) })
        add("reply-submit-text", hints.replySubmitText.map { .string($0) })
        if !hints.destructiveActions.isEmpty { add("destructive-actions", .stringArray(hints.destructiveActions)) }
        return .vardict(entries)
    }
}
