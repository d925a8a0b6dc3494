import ChimeCore
import ChimeDBus

/// The app methods of dev.chime.Chime1: per-app settings, kept across restarts.
extension ControlInterface {
    func appHandlers() -> [String: ExportedInterface.Handler] {
        [
            "ListApps": { [unowned self] _ in
                [.array(elementSignature: "a{sv}", knownApps.map(appRecord))]
            },
            "GetApp": { [unowned self] call throws(BusError) in
                guard case .string(let app) = call.arguments[0] else { return [] }
                return [appRecord(try knownApp(named: app))]
            },
            "SetApp": { [unowned self] call throws(BusError) in
                guard case .string(let name) = call.arguments[0], case .string(let key) = call.arguments[1],
                      case .string(let value) = call.arguments[2] else { return [] }
                // An app may be set up before it sends anything: it is remembered from now on.
                let app = knownApps(named: name).first ?? name
                var scratch = core.attention.apps.settings(for: app, config: core.attention.settings)
                if let problem = scratch.setChecked(key, to: value) { throw BusError.invalidArgs(problem) }
                core.apply(core.attention.setOverride(app, key, value))
                return []
            },
        ]
    }

    /// Apps that have sent a notification, or that the config names.
    var knownApps: [String] {
        Set(core.attention.apps.identities).union(core.attention.settings.apps.keys).sorted()
    }

    /// The apps (by identity) a person may mean by `name`: the app of that identity, else those
    /// whose identity or app name it is in any case (`Firefox` finds `firefox`, and Evolution's
    /// `org.gnome.Evolution` by the name "Evolution" it sends), among the apps Chime remembers,
    /// the config names, are open or are in the center.
    func knownApps(named name: String) -> [String] {
        let lowered = name.lowercased()
        var candidates = Set(knownApps.filter { $0.lowercased() == lowered })
        for open in core.attention.server.notifications
        where open.appIdentity.lowercased() == lowered || open.request.appName.lowercased() == lowered {
            candidates.insert(open.appIdentity)
        }
        candidates.formUnion(store?.apps(named: name) ?? [])
        return candidates.contains(name) ? [name] : candidates.sorted()
    }

    /// The app `name` means, or an unknown-name error listing the apps Chime knows.
    func knownApp(named name: String) throws(BusError) -> String {
        guard let app = knownApps(named: name).first else {
            throw BusError(BusError.unknownName, "no app named '\(name)'; known apps: " + knownApps.joined(separator: ", "))
        }
        return app
    }

    private func appRecord(_ app: String) -> BusValue {
        let settings = core.attention.apps.settings(for: app, config: core.attention.settings)
        return .vardict([("app", .string(app))] + settings.textValues.map { ($0.key, .string($0.value)) })
    }
}
