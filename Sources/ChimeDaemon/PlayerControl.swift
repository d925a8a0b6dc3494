import ChimeControl
import ChimeCore
import ChimeDBus

/// The media players' methods of dev.chime.Chime1 (design section 25): what each plays, for the
/// panel's player card, `chimectl players` and bars; and play, pause or skip, sent on to the player.
extension ControlInterface {
    func playerHandlers() -> [String: ExportedInterface.Handler] {
        [
            "Players": { [unowned self] _ in [PlayerRecord.busValue(mediaPlayers?.players ?? [])] },
            "PlayerControl": { [unowned self] call throws(BusError) in
                let name = call.arguments[0].string ?? "", action = call.arguments[1].string ?? ""
                guard MediaPlayers.actions.contains(action) else {
                    throw .invalidArgs("'\(action)' is not one of: " + MediaPlayers.actions.joined(separator: ", "))
                }
                let busName = name.hasPrefix(MediaPlayer.namePrefix) ? name : MediaPlayer.namePrefix + name
                guard mediaPlayers?.control(busName, action: action) == true else {
                    throw .invalidArgs("no media player '\(name)' on the bus")
                }
                return []
            },
        ]
    }

    /// Follows the players from now on: the decision hears what they play, and clients hear it too.
    func followMediaPlayers() {
        mediaPlayers = MediaPlayers(identities: identities) { [unowned self] players in
            core.attention.players = players
            signals.emitControl("PlayersChanged", [PlayerRecord.busValue(players)])
        }
    }
}
