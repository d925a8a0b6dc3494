/// What a redacted notification shows instead of its text (the README's attention model).
public enum HiddenPreview {
    public static func body(for request: NotificationRequest) -> String {
        if let body = request.hints.hiddenPreviewBody, !body.isEmpty { return body }
        let category = request.hints.category ?? ""
        if category.isCategory(in: "im") { return "New message" }
        if category.isCategory(in: "email") { return "New email" }
        if category.isCategory(in: "call") { return "Incoming call" }
        return "Notification"
    }
}
