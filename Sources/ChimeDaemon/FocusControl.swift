import ChimeCore
import ChimeDBus

/// The Focus methods of dev.chime.Chime1.
extension ControlInterface {
    func focusHandlers() -> [String: ExportedInterface.Handler] {
        [
            "FocusList": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", core.attention.settings.focusModes.map { mode in
                    .vardict([
                        ("name", .string(mode.name)),
                        ("display-name", .string(core.attention.displayName(mode.name))),
                        ("allowed-apps", .stringArray(mode.allowedApps.sorted())),
                        ("allowed-people", .stringArray(mode.allowedPeople.sorted())),
                        ("allow-time-sensitive", .bool(mode.allowsTimeSensitive)),
                        ("hide-badges", .bool(mode.hidesBadges)),
                        ("schedules", .stringArray(mode.schedules.map(\.description))),
                        ("active", .bool(core.attention.currentFocus?.name == mode.name)),
                    ])
                })]
            },
            "FocusOn": acting { core, call throws(RequestError) in
                guard case .string(let name) = call.arguments[0], let options = call.arguments[1].vardictEntries else { return [] }
                let now = core.now
                var until: Int64?
                if let seconds = options["for-seconds"]?.integer {
                    guard seconds > 0 else { throw .invalidArgument("for-seconds must be positive") }
                    until = now.wall + seconds * 1000
                } else if let text = options["until"]?.string {
                    guard let time = ClockTime(parsing: text) else { throw .invalidArgument("'\(text)' is not a time HH:MM") }
                    until = LocalClock.nextOccurrence(of: time, after: now.wall)
                }
                return try core.attention.focusOn(name, until: until, now: now)
            },
            "FocusOff": acting { core, _ throws(RequestError) in
                core.attention.focusOff(now: core.now)
            },
            "FocusStatus": { [unowned self] _ in [focusStatus()] },
            "SetSharing": acting { core, call throws(RequestError) in
                guard case .bool(let sharing) = call.arguments[0] else { return [] }
                return core.attention.setSharing(sharing, now: core.now)
            },
            "Inhibit": inhibiting { $0.arguments[2].vardictEntries?["focus"]?.string ?? FocusMode.doNotDisturb },
            "UnInhibit": uninhibiting(),
        ]
    }

    /// Inhibit, here and on org.freedesktop.Notifications (KDE's): holds the Focus `focus` names
    /// on until UnInhibit or the caller leaves the bus.
    func inhibiting(_ focus: @escaping (MethodCall) -> String) -> ExportedInterface.Handler {
        { [unowned self] call throws(BusError) in
            guard case .string(let application) = call.arguments[0], case .string(let reason) = call.arguments[1] else { return [] }
            do throws(RequestError) {
                let result = try core.attention.inhibit(focus: focus(call), owner: call.sender, application: application,
                                                   reason: reason, now: core.now)
                core.apply(result.events)
                return [.uint32(result.cookie)]
            } catch {
                throw BusError(error)
            }
        }
    }

    func uninhibiting() -> ExportedInterface.Handler {
        acting { core, call throws(RequestError) in
            guard case .uint32(let cookie) = call.arguments[0] else { return [] }
            return try core.attention.uninhibit(cookie, now: core.now)
        }
    }

    /// The FocusStatus / FocusChanged description of the active Focus.
    func focusStatus() -> BusValue {
        let active = core.attention.currentFocus
        return .vardict([
            ("active", .string(active?.name ?? "")),
            ("display-name", .string(active.map { core.attention.displayName($0.name) } ?? "")),
            ("source", .string(active?.source.rawValue ?? "")),
            ("until", .int64(active?.until ?? 0)),
            ("sharing", .bool(core.attention.focus.sharing)),
            ("inhibitors", .array(elementSignature: "a{sv}", core.attention.focus.inhibitors.map { inhibitor in
                .vardict([("cookie", .uint32(inhibitor.cookie)), ("focus", .string(inhibitor.focus)),
                          ("application", .string(inhibitor.application)), ("reason", .string(inhibitor.reason))])
            })),
        ])
    }
}
