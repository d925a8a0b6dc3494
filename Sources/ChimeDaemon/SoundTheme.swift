import ChimeConfig
import ChimeGLib
import Glibc

/// Chime's sounds are an XDG sound theme, `sounds/chime/`. libcanberra finds themes through
/// XDG_DATA_DIRS, so chimed puts the folder that holds `sounds/chime` first: PREFIX/share when
/// installed, the repository when run from the build tree.
enum SoundTheme {
    static func makeFindable() {
        guard let bin = executableFolder() else { return }
        // Installed: PREFIX/bin/chimed. Build tree: ROOT/.build/TRIPLE/CONFIG/chimed.
        let candidates = [bin + "/../share", bin + "/../../.."]
        guard let found = candidates.first(where: { access($0 + "/sounds/chime/index.theme", R_OK) == 0 }) else {
            Log.warningOnce(key: "sound-theme", "Chime's sound theme was not found near \(bin); time-sensitive and critical notifications use the freedesktop sounds")
            return
        }
        let current = getenv("XDG_DATA_DIRS").map { String(cString: $0) } ?? ""
        let rest = current.isEmpty ? "/usr/local/share:/usr/share" : current
        // Before any thread exists (setenv is not safe once another reads the environment); the
        // children chimed starts, chime-sound among them, inherit it.
        setenv("XDG_DATA_DIRS", found + ":" + rest, 1)
    }
}
