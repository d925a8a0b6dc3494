import ChimeCore
import ChimeDBus

/// ShowCenter on dev.chime.Chime1: the panel (chimed(1)'s panel) is open
/// or closed here, and chime-presenter draws it while it is open, as it draws banners.
extension ControlInterface {
    func panelHandlers() -> [String: ExportedInterface.Handler] {
        [
            "ShowCenter": { [unowned self] call throws(BusError) in
                let open: Bool
                switch call.arguments[0].string ?? "" {
                case "open": open = true
                case "close": open = false
                case "toggle": open = !centerOpen
                case let other: throw .invalidArgs("'\(other)' is not open, close or toggle")
                }
                if open, !centerOpen, !panelChild.canDraw {
                    throw BusError(BusError.failed, "the panel cannot be drawn: banners are \(panelChild.status.rawValue) (see chimectl status)")
                }
                showCenter(open)
                return [.bool(open)]
            },
        ]
    }

    /// Opens or closes the panel: the presenter is started for it, and hears CenterShown.
    func showCenter(_ open: Bool) {
        guard open != centerOpen else { return }
        centerOpen = open
        if open { panelChild.needed() }
        signals.emitControl("CenterShown", [.bool(open)])
    }
}
