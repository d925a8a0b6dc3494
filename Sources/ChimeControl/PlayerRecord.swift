import ChimeCore

/// A media player as the control interface shows it (an a{sv}, `Players` and `PlayersChanged`):
/// what the panel's player card and `chimectl players` read.
public enum PlayerRecord {
    public static func busValue(_ player: MediaPlayer) -> BusValue {
        var entries: [(String, BusValue)] = [
            ("player", .string(player.busName)),
            ("name", .string(player.displayName)),
            ("status", .string(player.status)),
            ("title", .string(player.title ?? "")),
            ("artists", .stringArray(player.artists)),
            ("album", .string(player.album ?? "")),
            ("can-go-next", .bool(player.canGoNext)),
            ("can-go-previous", .bool(player.canGoPrevious)),
            ("can-play", .bool(player.canPlay)),
            ("can-pause", .bool(player.canPause)),
        ]
        if let art = player.art { entries.append(("art", .string(art))) }
        if let entry = player.desktopEntry { entries.append(("desktop-entry", .string(entry))) }
        return .vardict(entries)
    }

    public static func busValue(_ players: [MediaPlayer]) -> BusValue {
        .array(elementSignature: "a{sv}", players.map(busValue))
    }

    /// Read back; nil for a value that is not a player's record.
    public static func player(_ value: BusValue) -> MediaPlayer? {
        guard let entries = value.vardictEntries, let busName = entries["player"]?.string else { return nil }
        var player = MediaPlayer(busName: busName, owner: "")
        player.name = entries["name"]?.string
        player.status = entries["status"]?.string ?? "Stopped"
        player.title = entries["title"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        player.artists = entries["artists"]?.strings ?? []
        player.album = entries["album"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        player.canGoNext = entries["can-go-next"]?.bool ?? false
        player.canGoPrevious = entries["can-go-previous"]?.bool ?? false
        player.canPlay = entries["can-play"]?.bool ?? false
        player.canPause = entries["can-pause"]?.bool ?? false
        player.art = entries["art"]?.string
        player.desktopEntry = entries["desktop-entry"]?.string
        return player
    }

    public static func players(_ value: BusValue) -> [MediaPlayer] {
        guard case .array(_, let items) = value.unwrapped else { return [] }
        return items.compactMap(player)
    }
}
