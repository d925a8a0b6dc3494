import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimePresenter

/// The panel's side of the control interface. While it is open it hears what changes the
/// center, the Focus and mute, and reads them again (History, FocusList, FocusStatus,
/// GetStatus) once such signals pause; what the person does in it goes back as calls. Closed,
/// it hears none of them.
final class PanelClient {
    private let connection: BusConnection
    private(set) var panel: CenterPanel!
    private var search = ""
    private var refreshScheduled = false
    /// The most notifications the panel shows (newest first); search reaches the rest.
    static let shown = 200
    /// Signals that change what the panel shows, besides the banners' (which the presenter hears anyway).
    private static let rules = ["Stored", "BadgesChanged", "FocusChanged", "Deleted", "PlayersChanged"].map {
        "type='signal',sender='\(ControlProtocol.name)',interface='\(ControlProtocol.name)',path='\(ControlProtocol.path)',member='\($0)'"
    } + ["type='signal',sender='\(ControlProtocol.name)',interface='org.freedesktop.DBus.Properties',path='\(ControlProtocol.path)',member='PropertiesChanged'"]

    init(connection: BusConnection, settings: PanelSettings) {
        self.connection = connection
        var actions = CenterPanel.Actions(
            invoke: { [unowned self] in send("InvokeWithToken", [.uint32($0), .string($1), .string($2)]) },
            delete: { [unowned self] in send("Delete", [.uint32($0)]) },
            reply: { [unowned self] in send("Reply", [.uint32($0), .string($1)]) },
            read: { [unowned self] in send("Read", [.array(elementSignature: "u", $0.map(BusValue.uint32))]) },
            clear: { [unowned self] in send("Clear", [.vardict([("ids", .array(elementSignature: "u", $0.map(BusValue.uint32)))])]) },
            focusOn: { [unowned self] in send("FocusOn", [.string($0), .vardict($1)]) },
            focusOff: { [unowned self] in send("FocusOff", []) },
            setMuted: { [unowned self] in send("SetMuted", [.bool($0)]) },
            close: { [unowned self] in
                close()
                send("ShowCenter", [.string("close")])
            },
            search: { [unowned self] text in
                search = text
                refreshSoon(center: true, status: false)
            },
            wantActivity: { [unowned self] in showActivity() },
            playAttachment: { [unowned self] in send("PlayAttachment", [.uint32($0), .uint32(UInt32($1))]) })
        actions.playerControl = { [unowned self] in send("PlayerControl", [.string($0), .string($1)]) }
        panel = CenterPanel(settings: settings, actions: actions)
    }

    func open() {
        guard !panel.isOpen else { return }
        for rule in Self.rules { try? connection.addMatch(rule) }
        refresh()
        refreshPlayers()
        panel.open()
    }

    func close() {
        guard panel.isOpen else { return }
        panel.close()
        for rule in Self.rules { connection.removeMatch(rule) }
    }

    /// A signal from chimed, while the panel is open: mute (PropertiesChanged) changes the header
    /// only; a Focus both the header and the list (what it holds, whose previews it hides); the
    /// rest the list only.
    func heard(_ member: String?) {
        guard panel.isOpen else { return }
        switch member {
        case "PlayersChanged": refreshPlayers()
        case "PropertiesChanged": refreshSoon(center: false, status: true)
        case "FocusChanged": refreshSoon(center: true, status: true)
        default: refreshSoon(center: true, status: false)
        }
    }

    /// What the next refresh reads again.
    private var stale = (center: false, status: false)

    /// Once the signals of one change have come (a clear sends several), not for each.
    private func refreshSoon(center: Bool, status: Bool) {
        stale = (stale.center || center, stale.status || status)
        guard !refreshScheduled else { return }
        refreshScheduled = true
        GLibSources.timeout(milliseconds: 50) { [weak self] in
            guard let self else { return false }
            refreshScheduled = false
            refresh(center: stale.center, status: stale.status)
            stale = (false, false)
            return false
        }
    }

    private func refresh(center: Bool = true, status: Bool = true) {
        if center { refreshCenter() }
        if status { refreshStatus() }
    }

    private func refreshCenter() {
        var filter: [(String, BusValue)] = [("limit", .uint32(UInt32(Self.shown))), ("as-shown", .bool(true))]
        if !search.isEmpty { filter.append(("text", .string(search))) }
        if let page = try? call("History", [.vardict(filter)]), let records = page.first?.records {
            panel.show(CenterContent(records: records))
        }
    }

    private func refreshPlayers() {
        if let players = try? call("Players", []).first { panel.show(PlayerRecord.players(players)) }
    }

    private func refreshStatus() {
        var status = CenterPanel.Status()
        if let modes = try? call("FocusList", []).first?.records {
            status.modes = modes.compactMap { mode in
                mode["name"]?.string.map { .init(name: $0, displayName: mode["display-name"]?.string ?? $0) }
            }
        }
        if let focus = try? call("FocusStatus", []).first?.vardictEntries {
            status.active = focus["active"]?.string ?? ""
            status.until = focus["until"]?.integer ?? 0
        }
        let daemon = (try? call("GetStatus", []).first?.vardictEntries) ?? [:]
        status.muted = daemon["muted"]?.bool ?? false
        status.configProblems = daemon["config-problems"]?.strings ?? []
        panel.show(status)
    }

    private func showActivity() {
        guard let reply = try? call("Activity", [.uint32(7)]), reply.count == 2 else { return }
        panel.show(ActivityReport(dates: reply[0].strings ?? [], rows: reply[1].records))
    }

    private func call(_ method: String, _ arguments: [BusValue]) throws(BusError) -> [BusValue] {
        try connection.call(.methodCall(destination: ControlProtocol.name, path: ControlProtocol.path,
                                        interface: ControlProtocol.name, method: method, arguments: arguments))
    }

    private func send(_ method: String, _ arguments: [BusValue]) {
        connection.send(.methodCall(destination: ControlProtocol.name, path: ControlProtocol.path,
                                    interface: ControlProtocol.name, method: method, arguments: arguments))
    }
}
