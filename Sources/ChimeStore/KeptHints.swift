import ChimeCore

/// The hints a notification needs to be presented again as it came (`chimectl restore`, a
/// snooze ending, a restart), beyond those the center has columns for: one JSON object in the
/// `hints` column, NULL for the many notifications that send none of them. `image-data` is not
/// kept: its pixels can be megabytes, and the center keeps a thousand entries.
enum KeptHints {
    /// The object's text, or nil when there is nothing to keep. Each hint is read where it lies
    /// (`request.hints.x`): taking the hints as a value copies all thirty, every Notify.
    static func json(_ request: NotificationRequest) -> String? {
        var pairs: [(String, BusValue)] = []
        func add(_ name: HintName, _ value: BusValue?) { if let value { pairs.append((name.text, value)) } }
        add(.imagePath, request.hints.imagePath.map { .string($0) })
        add(.soundName, request.hints.soundName.map { .string($0) })
        add(.soundFile, request.hints.soundFile.map { .string($0) })
        add(.suppressSound, request.hints.suppressSound ? .bool(true) : nil)
        add(.actionIcons, request.hints.actionIcons ? .bool(true) : nil)
        add(.value, request.hints.progress.map { .int32($0) })
        add(.replyPlaceholder, request.hints.replyPlaceholder.map { .string($0) })
        add(.replySubmitText, request.hints.replySubmitText.map { .string($0) })
        add(.hiddenPreviewBody, request.hints.hiddenPreviewBody.map { .string($0) })
        add(.kdeOriginName, request.hints.originName.map { .string($0) })
        add(.kdeDisplayAppName, request.hints.displayAppName.map { .string($0) })
        add(.destructiveActions, request.hints.destructiveActions.isEmpty ? nil : .stringArray(request.hints.destructiveActions))
        add(.attachments, request.hints.attachments.isEmpty ? nil : .stringArray(request.hints.attachments.map(\.storedLine)))
        return pairs.isEmpty ? nil : JSONText.object(pairs)
    }

    /// The paths of every attachment the center's rows name.
    static let attachmentPathsSQL = """
        SELECT value FROM notifications, json_each(notifications.hints, '$."\(HintName.attachments.text)"')
        WHERE hints LIKE '%\(HintName.attachments.text)%'
        """

    /// What a query selects to read them back, in `read`'s order (SQLite's JSON functions).
    static let columns = [HintName.imagePath, .soundName, .soundFile, .suppressSound, .actionIcons, .value,
                          .replyPlaceholder, .replySubmitText, .hiddenPreviewBody, .kdeOriginName, .kdeDisplayAppName]
        .map { "json_extract(hints, '$.\"\($0.text)\"')" }
        .joined(separator: ", ")
        + ", (SELECT group_concat(value, char(31)) FROM json_each(hints, '$.\"\(HintName.destructiveActions.text)\"'))"
        + ", (SELECT group_concat(value, char(31)) FROM json_each(hints, '$.\"\(HintName.attachments.text)\"'))"

    /// Reads them from `row`, whose columns from `first` on are `columns`.
    static func read(_ row: SQLiteDatabase.Row, from first: Int32, into hints: inout NotificationHints) {
        hints.imagePath = row.text(first)
        hints.soundName = row.text(first + 1)
        hints.soundFile = row.text(first + 2)
        hints.suppressSound = row.integer(first + 3) != 0
        hints.actionIcons = row.integer(first + 4) != 0
        hints.progress = row.real(first + 5).flatMap { Int32(exactly: $0.rounded()) }  // a hand-edited file cannot trap
        hints.replyPlaceholder = row.text(first + 6)
        hints.replySubmitText = row.text(first + 7)
        hints.hiddenPreviewBody = row.text(first + 8)
        hints.originName = row.text(first + 9)
        hints.displayAppName = row.text(first + 10)
        hints.destructiveActions = row.text(first + 11).map { $0.split(separator: "\u{1F}").map(String.init) } ?? []
        hints.attachments = attachments(row, from: first)
    }

    /// Just the attachments, from a row whose columns from `first` on are `columns`.
    static func attachments(_ row: SQLiteDatabase.Row, from first: Int32) -> [Attachment] {
        row.text(first + 12).map { $0.split(separator: "\u{1F}").compactMap { Attachment(storedLine: String($0)) } } ?? []
    }
}
