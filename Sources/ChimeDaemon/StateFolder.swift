import ChimeGLib
import Glibc

/// `$XDG_STATE_HOME/chime`: the center, its logs and apps.state hold what notifications said
/// (a PIN, a message), so the folder is 0700 and every file in it 0600, whatever chimed finds
/// there at start (a backup restored with 0644, a folder made by hand). Files made later are
/// private through chimed's umask (077, set in its main).
enum StateFolder {
    /// Makes what is missing of `folder`, and makes it and its files private. False, and nothing
    /// in it touched, when it is not a folder of the user's own: a symbolic link or another
    /// user's folder in its place (one made in a shared folder such as /tmp by someone else)
    /// would lead chimed to change or delete files that are not its.
    @discardableResult
    static func secure(_ folder: String) -> Bool {
        var prefix = ""
        for component in folder.split(separator: "/") {
            prefix += "/" + component
            _ = mkdir(prefix, 0o700)  // only what is missing; parents already there keep their modes
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else {
            Log.warningOnce(key: "not-ours " + folder, "\(folder) is not a folder of this user's own (a symbolic link, or another user's); chimed keeps nothing in it")
            return false
        }
        tighten(folder, to: 0o700, directory: true)
        for entry in FolderEntries.list(folder) { tighten(entry.path, to: 0o600, directory: false) }
        return true
    }

    /// Ours and of the kind expected (never through a symbolic link): drops group and other bits.
    private static func tighten(_ path: String, to mode: mode_t, directory: Bool) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_uid == getuid() else { return }
        let kind = info.st_mode & S_IFMT
        guard kind == (directory ? S_IFDIR : S_IFREG), info.st_mode & 0o077 != 0 else { return }
        if chmod(path, mode) != 0 {
            Log.warning("cannot make \(path) private (mode \(String(mode, radix: 8))): \(String(cString: strerror(errno)))")
        }
    }
}
