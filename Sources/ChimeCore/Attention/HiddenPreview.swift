/// What a redacted notification shows instead of its text (chimed(1)'s attention model).
public enum HiddenPreview {
    public static func body(for request: NotificationRequest) -> String {
        body(placeholder: request.hints.hiddenPreviewBody, category: request.hints.category)
    }

    /// The app's own placeholder (`x-chime-hidden-preview-body`), else a word for its category.
    public static func body(placeholder: String?, category: String?) -> String {
        if let placeholder, !placeholder.isEmpty { return placeholder }
        let category = category ?? ""
        if category.isCategory(in: "im") { return tr("New message") }
        if category.isCategory(in: "email") { return tr("New email") }
        if category.isCategory(in: "call") { return tr("Incoming call") }
        return tr("Notification")
    }
}
