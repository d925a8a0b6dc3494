/// A media player on the session bus (MPRIS, `org.mpris.MediaPlayer2.*`) and what it plays, as
/// the player says: what makes one of its notifications "now playing" (design section 25), and
/// what the panel's player card shows.
public struct MediaPlayer: Equatable, Sendable {
    /// Its well-known name, `org.mpris.MediaPlayer2.vlc`: how it is addressed.
    public var busName: String
    /// The unique name that owns `busName`.
    public var owner: String
    /// Who runs it, as the system says; nil until known.
    public var identity: SenderIdentity?
    /// `DesktopEntry` and `Identity` of `org.mpris.MediaPlayer2`.
    public var desktopEntry: String?
    public var name: String?
    /// From `Metadata`: `xesam:title`, `xesam:artist`, `xesam:album`; and `mpris:artUrl` when it
    /// names a local image file that passed the checks any image passes (its path).
    public var title: String?
    public var artists: [String] = []
    public var album: String?
    public var art: String?
    /// `PlaybackStatus`: Playing, Paused or Stopped.
    public var status = "Stopped"
    public var canGoNext = false
    public var canGoPrevious = false
    public var canPlay = false
    public var canPause = false

    public init(busName: String, owner: String) {
        self.busName = busName
        self.owner = owner
    }

    public static let namePrefix = "org.mpris.MediaPlayer2."

    /// Its bus name's last part (`vlc`), as `chimectl player` takes it.
    public var shortName: String {
        String(busName.dropFirst(busName.hasPrefix(Self.namePrefix) ? Self.namePrefix.count : 0))
    }

    /// What people call it: its `Identity`, else `shortName`.
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        return shortName
    }

    /// Whether the player sent `request`: from its own connection, from its process's sandbox or
    /// unit, or under its desktop entry.
    public func sent(_ request: NotificationRequest, from sender: String, system: SenderIdentity?) -> Bool {
        if sender == owner { return true }
        if let system, let identity, system == identity, system.kind != .executable { return true }
        if let desktopEntry, !desktopEntry.isEmpty {
            return DesktopContext.normalized(desktopEntry) == DesktopContext.normalized(request.appIdentity)
        }
        return false
    }

    /// The current track's title, when `request`'s texts name it: its title or one of its
    /// artists, in any case, as people read them.
    public func track(namedBy request: NotificationRequest) -> String? {
        guard let title, !title.isEmpty else { return nil }
        let text = request.summary + "\n" + request.body
        let names = [title] + artists
        return names.contains { !$0.isEmpty && text.containsFolded($0) } ? title : nil
    }
}

extension Array where Element == MediaPlayer {
    /// The track a player of these says `request` announces, if one does.
    public func nowPlaying(_ request: NotificationRequest, from sender: String, system: SenderIdentity?) -> String? {
        lazy.filter { $0.sent(request, from: sender, system: system) }.compactMap { $0.track(namedBy: request) }.first
    }
}
