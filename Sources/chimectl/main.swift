import ChimeCore
import ChimeGLib
import Glibc

Translation.install()
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    try Commands.run(arguments)
} catch {
    // A refusal may quote an app's name or text.
    var text = error.message.withoutControlCharacters(keepingLineBreaks: true) + "\n" + (error.showsUsage ? "\n" + Usage.text(for: arguments) + "\n" : "")
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(error.exitCode)
}
