/// How chimectl fails: the message goes to stderr and the code is the exit status.
struct CommandLineError: Error {
    var message: String
    var exitCode: Int32

    /// Whether the usage of the command goes with the message (`Usage.text(for:)`).
    var showsUsage = false

    /// Bad arguments: the usage goes with it, exit 2.
    static func usage(_ message: String) -> CommandLineError {
        CommandLineError(message: "chimectl: \(message)", exitCode: 2, showsUsage: true)
    }

    /// The daemon refused or is not there: exit 1 (or `exitCode`, as 127 for a command that
    /// could not run, as shells say it).
    static func failure(_ message: String, exitCode: Int32 = 1) -> CommandLineError {
        CommandLineError(message: "chimectl: \(message)", exitCode: exitCode)
    }
}
