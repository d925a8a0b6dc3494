import ChimeCore
import ChimeDBus

/// The app methods of dev.chime.Chime1: per-app settings, kept across restarts.
extension Daemon {
    func appHandlers() -> [String: ExportedInterface.Handler] {
        [
            "ListApps": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", knownApps.map(appRecord))]
            },
            "GetApp": { [unowned self] call throws(BusError) in
                guard case .string(let app) = call.arguments[0] else { return [] }
                try requireKnown(app)
                return [appRecord(app)]
            },
            "SetApp": { [unowned self] call throws(BusError) in
                guard case .string(let app) = call.arguments[0], case .string(let key) = call.arguments[1],
                      case .string(let value) = call.arguments[2] else { return [] }
                try requireKnown(app)
                var scratch = attention.apps.settings(for: app, config: attention.settings)
                if let problem = scratch.setChecked(key, to: value) { throw BusError.invalidArgs(problem) }
                attention.setOverride(app, key, value)
                apply([])
                return []
            },
        ]
    }

    /// Apps that have sent a notification, or that the config names.
    var knownApps: [String] {
        Set(attention.apps.identities).union(attention.settings.apps.keys).sorted()
    }

    private func requireKnown(_ app: String) throws(BusError) {
        guard knownApps.contains(app) else {
            throw BusError(BusError.unknownName, "no app named '\(app)'; known apps: " + knownApps.joined(separator: ", "))
        }
    }

    private func appRecord(_ app: String) -> BusValue {
        let settings = attention.apps.settings(for: app, config: attention.settings)
        return .vardict([("app", .string(app))] + settings.textValues.map { ($0.key, .string($0.value)) })
    }
}
