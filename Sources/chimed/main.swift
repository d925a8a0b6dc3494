import ChimeDaemon
import Foundation
import Glibc

// Wiring only: parse the command line, build the daemon, serve.
switch DaemonOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code, let message):
    print(message)
    exit(code)
case .run(let options):
    do {
        let daemon = try Daemon(options: options, environment: ProcessInfo.processInfo.environment)
        exit(daemon.run(replace: options.replace))
    } catch {
        Log.info("cannot connect to the session bus: \(error.message)")
        exit(1)
    }
}
