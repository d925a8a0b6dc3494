/// Chromium and the browsers built on it (Chrome, Brave, Edge, Vivaldi) send urgency critical
/// for every page notification that asks to stay on screen (`requireInteraction`) on any server
/// but Plasma's. From them urgency critical means "stay until the person acts", not "urgent"
/// (design section 2): active and resident, not time-sensitive.
public enum StayOnScreen {
    /// Their desktop entries (packaged and Flatpak) and the app names they send.
    static let desktopEntries: Set<String> = [
        "chromium", "chromium-browser", "org.chromium.chromium", "google-chrome", "google-chrome-beta", "google-chrome-unstable",
        "com.google.chrome", "brave-browser", "com.brave.browser", "microsoft-edge", "microsoft-edge-beta", "com.microsoft.edge",
        "vivaldi-stable", "com.vivaldi.vivaldi",
    ]
    static let appNames: Set<String> = ["Chromium", "Google Chrome", "Brave", "Microsoft Edge", "Vivaldi"]

    /// Whether `request` is a Chromium browser's urgency critical, which asks only to stay.
    public static func asks(_ request: NotificationRequest) -> Bool {
        guard request.hints.urgency == .critical, request.hints.interruptionLevel == nil else { return false }
        if let entry = request.hints.desktopEntry {
            return desktopEntries.contains(entry.lowercased().replacingSuffix(".desktop"))
        }
        return appNames.contains(request.appName)
    }
}

private extension String {
    func replacingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
