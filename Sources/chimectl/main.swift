import Glibc

do {
    try Commands.run(Array(CommandLine.arguments.dropFirst()))
} catch {
    var text = error.message + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(error.exitCode)
}
