import ChimeConfig
import ChimeDaemon
import ChimeGLib
import Glibc

// Wiring only: parse the command line, build the daemon, serve. No Foundation here: it would
// cost chimed megabytes of memory and milliseconds of start-up for nothing it needs.
// A rule's command, bounded by a process of chimed's (HookSupervisor): chimed starts it so.
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--run-hook", CommandLine.arguments[3] == "--",
   let seconds = UInt32(CommandLine.arguments[2]) {
    exit(HookSupervisor.run(seconds: seconds, command: CommandLine.arguments[4]))
}
Translation.install()
switch DaemonOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .exit(let code, let message):
    print(message)
    exit(code)
case .run(let options):
    // What chimed keeps says what notifications said: whatever it creates is its user's alone.
    umask(0o077)
    Log.takeGLibMessages()
    OpenFileLimit.raiseToHard()
    do {
        let daemon = try Daemon(options: options, environment: processEnvironment())
        let status = daemon.run(replace: options.replace)
        Log.flush()
        exit(status)
    } catch {
        Log.info("cannot connect to the session bus: \(error.message)")
        Log.flush()
        exit(1)
    }
}
