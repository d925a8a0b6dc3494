import ChimeCore
import ChimeDBus
import ChimeGLib

/// Follows the media players on the session bus (MPRIS): which own an `org.mpris.MediaPlayer2.*`
/// name, and what each plays. Nothing polls: NameOwnerChanged (by `arg0namespace`) says who
/// comes and goes, each player's PropertiesChanged what changes, and the first look is one
/// asynchronous GetAll per player, so a player that hangs delays nothing. On a connection of its
/// own: what the players answer never mixes with the interfaces chimed serves.
final class MediaPlayers {
    static let path = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// What `control` may ask a player to do.
    static let actions = ["PlayPause", "Play", "Pause", "Next", "Previous", "Stop"]
    /// A session has a few players; a client that claims thousands of names is not followed past this.
    static let capacity = 32

    private var connection: BusConnection?
    private let identities: SenderIdentities
    private let changed: ([MediaPlayer]) -> Void
    private(set) var players: [MediaPlayer] = []

    init(identities: SenderIdentities, changed: @escaping ([MediaPlayer]) -> Void) {
        self.identities = identities
        self.changed = changed
        do {
            let connection = try BusConnection()
            self.connection = connection
            connection.attachToMainLoop { [unowned self] message in handle(message) }
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'")
            try connection.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(Self.path)'")
            let names = (try connection.busCall("ListNames", [])).first?.strings ?? []
            for name in names where name.hasPrefix(MediaPlayer.namePrefix) {
                guard let owner = (try? connection.busCall("GetNameOwner", [.string(name)]))?.first?.string else { continue }
                appeared(name, owner: owner)
            }
        } catch {
            Log.warningOnce(key: "mpris", "media players are not followed: \(error.message)")
        }
    }

    /// Asks the player `busName` to play, pause, or skip; false when there is no such player.
    func control(_ busName: String, action: String) -> Bool {
        guard let connection, players.contains(where: { $0.busName == busName }), Self.actions.contains(action) else { return false }
        connection.send(Message.methodCall(destination: busName, path: Self.path, interface: Self.playerInterface,
                                           method: action, arguments: []).withoutAutoStart())
        return true
    }

    private func handle(_ message: Message) -> Bool {
        switch message.kind {
        case .methodReturn:
            // A GetAll's answer, from the player's own connection.
            if let sender = message.sender, let properties = message.arguments.first?.vardictEntries {
                update(owner: sender, properties)
            }
            return true
        case .error:
            return true
        case .signal where message.member == "NameOwnerChanged":
            let arguments = message.arguments
            guard arguments.count == 3, let name = arguments[0].string, name.hasPrefix(MediaPlayer.namePrefix) else { return true }
            if let owner = arguments[2].string, !owner.isEmpty { appeared(name, owner: owner) } else { left(name) }
            return true
        case .signal where message.member == "PropertiesChanged":
            let arguments = message.arguments
            guard arguments.count > 1, let sender = message.sender else { return true }
            if let changes = arguments[1].vardictEntries, !changes.isEmpty { update(owner: sender, changes) }
            // Properties said to have changed without their values are asked for.
            if arguments.count > 2, !(arguments[2].strings ?? []).isEmpty { ask(sender) }
            return true
        default:
            return false
        }
    }

    private func appeared(_ name: String, owner: String) {
        players.removeAll { $0.busName == name }
        guard players.count < Self.capacity else {
            Log.warningOnce(key: "mpris-capacity", "more than \(Self.capacity) media players; \(name) is not followed")
            return
        }
        var player = MediaPlayer(busName: name, owner: owner)
        player.identity = identities.identity(of: owner)
        players.append(player)
        changed(players)
        ask(owner)
    }

    private func left(_ name: String) {
        guard players.contains(where: { $0.busName == name }) else { return }
        players.removeAll { $0.busName == name }
        changed(players)
    }

    /// Both interfaces' properties, answered later on the main loop.
    private func ask(_ owner: String) {
        for interface in [Self.rootInterface, Self.playerInterface] {
            connection?.send(Message.methodCall(destination: owner, path: Self.path, interface: "org.freedesktop.DBus.Properties",
                                                method: "GetAll", arguments: [.string(interface)]).withoutAutoStart())
        }
    }

    private func update(owner: String, _ properties: [String: BusValue]) {
        var any = false
        for index in players.indices where players[index].owner == owner {
            let before = players[index]
            players[index].take(properties)
            any = any || players[index] != before
        }
        if any { changed(players) }
    }
}

extension MediaPlayer {
    /// Takes what MPRIS properties say; a property not among them keeps its value.
    mutating func take(_ properties: [String: BusValue]) {
        if let name = properties["Identity"]?.unwrapped.string { self.name = String(name.prefix(200)) }
        if let entry = properties["DesktopEntry"]?.unwrapped.string { desktopEntry = String(entry.prefix(200)) }
        if let status = properties["PlaybackStatus"]?.unwrapped.string, ["Playing", "Paused", "Stopped"].contains(status) {
            self.status = status
        }
        if let next = properties["CanGoNext"]?.unwrapped.bool { canGoNext = next }
        if let previous = properties["CanGoPrevious"]?.unwrapped.bool { canGoPrevious = previous }
        if let play = properties["CanPlay"]?.unwrapped.bool { canPlay = play }
        if let pause = properties["CanPause"]?.unwrapped.bool { canPause = pause }
        if let metadata = properties["Metadata"]?.unwrapped.vardictEntries {
            func text(_ key: String) -> String? { metadata[key]?.unwrapped.string.map { String($0.prefix(500)) } }
            title = text("xesam:title")
            album = text("xesam:album")
            artists = (metadata["xesam:artist"]?.unwrapped.strings ?? []).prefix(10).map { String($0.prefix(500)) }
            // Only art on this machine, checked as any image: a web address is not fetched.
            art = text("mpris:artUrl").flatMap { url in url.hasPrefix("file://") ? try? ImageReference.check(url).get() : nil }
        }
    }
}
