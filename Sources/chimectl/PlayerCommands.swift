import ChimeControl
import ChimeCore

/// `chimectl players` and `chimectl player`: the media players on the bus, and play, pause or
/// skip from the shell (a key binding, a bar's click), as `playerctl` does.
enum PlayerCommands {
    static func players(_ arguments: inout Arguments) throws(CommandLineError) {
        let json = arguments.flag("--json")
        try arguments.done()
        let records = try ControlClient().records("Players")
        if json {
            print(JSONOutput.list(records))
            return
        }
        let players = records.compactMap { PlayerRecord.player(.vardict($0.map { ($0.key, $0.value) })) }
        if players.isEmpty { TextTable.printEmpty(tr("no media players on the bus")); return }
        var table = TextTable("PLAYER", "STATUS", "TITLE", "ARTIST")
        for player in players {
            table.add([player.shortName, player.status, player.title ?? "", player.artists.joined(separator: ", ")]
                .map { $0.withoutControlCharacters() })
        }
        table.print()
    }

    /// `player play-pause|play|pause|next|previous|stop [NAME]`: NAME as `players` lists it;
    /// without one, the player that is playing, else the first.
    static func player(_ arguments: inout Arguments) throws(CommandLineError) {
        guard let word = arguments.next() else { throw .usage(tr("player needs play-pause, play, pause, next, previous or stop")) }
        let actions = ["play-pause": "PlayPause", "play": "Play", "pause": "Pause", "next": "Next", "previous": "Previous", "stop": "Stop"]
        guard let action = actions[word] else {
            throw .usage(tr("'{word}' is not play-pause, play, pause, next, previous or stop", ["word": word]))
        }
        let named = arguments.next()
        try arguments.done()
        let client = try ControlClient()
        var name = named
        if name == nil {
            let players = try client.records("Players")
            name = (players.first { $0["status"]?.string == "Playing" } ?? players.first)?["player"]?.string
        }
        guard let name else { throw .failure(tr("no media players on the bus")) }
        _ = try client.call("PlayerControl", [.string(name), .string(action)])
    }
}
