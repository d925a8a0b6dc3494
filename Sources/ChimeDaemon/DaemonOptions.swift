import ChimeCore

/// chimed's command line.
public struct DaemonOptions: Equatable {
    public var replace = false
    public var defaultTimeout: Duration = .seconds(5)
    /// nil = $XDG_CONFIG_HOME/chime/chime.conf.
    public var configPath: String?
    /// Keep the center in memory only: nothing is written to disk, nothing survives a restart.
    public var noHistory = false
    /// The thread cooldown when the config sets none; nil = the built-in two minutes.
    public var threadCooldown: Duration?

    /// What the config's values go over.
    public var baseSettings: ChimeSettings {
        var settings = ChimeSettings()
        settings.server.defaultTimeout = defaultTimeout
        if let threadCooldown { settings.center.threadCooldown = threadCooldown }
        return settings
    }

    public static let usage = """
    usage: chimed [--replace] [--config FILE] [--default-timeout MS] [--thread-cooldown DURATION] [--no-history]

      --replace             take org.freedesktop.Notifications over from another chimed
      --config FILE         read FILE instead of $XDG_CONFIG_HOME/chime/chime.conf
      --default-timeout MS  expiry for notifications sent with expire_timeout -1 (default 5000)
      --thread-cooldown DURATION
                            how long a thread's banner updates quietly after it interrupted,
                            when the config does not say (default 2m; 0 = every one interrupts)
      --no-history          keep no history on disk (nothing survives a restart)
      --version             print the version
      --help                print this help
    """

    public enum Outcome: Equatable {
        case run(DaemonOptions)
        case exit(code: Int32, message: String)
    }

    public static func parse(_ arguments: [String]) -> Outcome {
        var options = DaemonOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--replace", "-r":
                options.replace = true
            case "--default-timeout":
                guard let value = rest.popFirst(), let ms = Int64(value), ms > 0 else {
                    return .exit(code: 2, message: "chimed: --default-timeout needs a positive number of milliseconds\n" + usage)
                }
                options.defaultTimeout = .milliseconds(ms)
            case "--thread-cooldown":
                guard let span = rest.popFirst().flatMap(DurationText.span) else {
                    return .exit(code: 2, message: "chimed: --thread-cooldown needs a duration such as 2m, 30s or 0\n" + usage)
                }
                options.threadCooldown = span
            case "--config":
                guard let path = rest.popFirst(), !path.isEmpty else {
                    return .exit(code: 2, message: "chimed: --config needs a file\n" + usage)
                }
                options.configPath = path
            case "--no-history":
                options.noHistory = true
            case "--version":
                return .exit(code: 0, message: "chimed \(ChimeVersion.string)")
            case "--help", "-h":
                return .exit(code: 0, message: usage)
            default:
                return .exit(code: 2, message: "chimed: unknown argument '\(argument)'\n" + usage)
            }
        }
        return .run(options)
    }
}
