import ChimeConfig
import ChimeCore
import ChimeDBus
import ChimeStore

/// The Replay method of dev.chime.Chime1 (design section 23): the center's notifications decided
/// again under the running config or another, what `chimectl replay` prints.
extension ControlInterface {
    func replayHandlers() -> [String: ExportedInterface.Handler] {
        [
            "Replay": { [unowned self] call throws(BusError) in
                let options = call.arguments[0].vardictEntries ?? [:]
                let seconds = options["since-seconds"]?.integer ?? 7 * 86_400
                guard seconds > 0 else { throw .invalidArgs("since-seconds must be a positive number of seconds") }
                let settings = try replaySettings(options["config"]?.string)
                let entries = try requireStore().decided(since: LocalClock.wallMilliseconds() - seconds * 1_000)
                let (apps, changes) = Replay.run(entries, settings: settings, apps: core.attention.apps)
                return [.array(elementSignature: "a{sv}", apps.map(Self.record)), .array(elementSignature: "a{sv}", changes.map(Self.record))]
            },
        ]
    }

    /// The config to decide under: the one in force, or the file named, read as chimed reads
    /// its own (a file that cannot be read is refused).
    private func replaySettings(_ path: String?) throws(BusError) -> ChimeSettings {
        guard let path, !path.isEmpty else { return core.attention.settings }
        switch ConfigLoader(path: path, required: true).load(base: config.base) {
        case .success(let loaded): return loaded.settings
        case .failure(let problem): throw .invalidArgs(problem.description)
        }
    }

    private static func record(_ app: Replay.App) -> BusValue {
        func figures(_ prefix: String, _ figures: Replay.Figures) -> [(String, BusValue)] {
            [(prefix + "banners", .uint32(UInt32(clamping: figures.banners))), (prefix + "sounds", .uint32(UInt32(clamping: figures.sounds))),
             (prefix + "held", .uint32(UInt32(clamping: figures.held))), (prefix + "summarized", .uint32(UInt32(clamping: figures.summarized)))]
        }
        return .vardict([("app-identity", .string(app.identity)), ("app-name", .string(app.name))]
                        + figures("was-", app.was) + figures("would-", app.would))
    }

    private static func record(_ change: Replay.Change) -> BusValue {
        .vardict([("id", .uint32(change.id)), ("app-name", .string(change.appName)), ("summary", .string(change.summary)),
                  ("was", .stringArray(change.was.map(\.text))), ("would", .stringArray(change.would.map(\.text)))])
    }
}
