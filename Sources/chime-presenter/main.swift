import ChimeConfig
import ChimeControl
import ChimeGLib
import Glibc

// chime-presenter [--config FILE] [--panel-only]: the panel and the GTK banners, started by chimed beside itself. A program of
// its own so that chimed never loads GTK: chimed stays small, and a display that goes away
// ends only this process.
Translation.install()
var arguments = CommandLine.arguments.dropFirst()
var configPath: String?
var panelOnly = false
var bannersOnly = false
var interaction: Interaction?
while let argument = arguments.popFirst() {
    if argument == "--config", let path = arguments.popFirst() {
        configPath = path
    } else if argument == "--panel-only" {
        panelOnly = true
    } else if argument == "--banners-only" {
        bannersOnly = true
    } else if ["--reply", "--menu", "--more"].contains(argument),
              let read = Interaction(arguments: [argument] + Array(arguments.prefix(5))) {
        interaction = read
        arguments = arguments.dropFirst(5)
    } else {
        print("""
            usage: chime-presenter [--config FILE] [--panel-only|--banners-only]   (chimed starts it; it draws chimed's banners and panel)
                   chime-presenter [--config FILE] --reply|--menu|--more ID --at X,Y,W,H --area X,Y,W,H
                                   (chime-banners starts it over a banner for its reply field or menu)
            """)
        exit(2)
    }
}
// Banners and the panel draw with cairo and need no OpenGL; GTK would still probe it at start on
// X11, loading Mesa and with it LLVM. A user's own GDK_GL wins.
setenv("GDK_GL", "disable", 0)
Log.takeGLibMessages()
let status = if let interaction {
    InteractionProcess.run(configPath: configPath, interaction: interaction, environment: processEnvironment())
} else {
    PresenterProcess.run(configPath: configPath, panelOnly: panelOnly, bannersOnly: bannersOnly, environment: processEnvironment())
}
Log.flush()
exit(status)
