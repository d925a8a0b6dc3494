import ChimeGLib

/// `$XDG_STATE_HOME/chime/ids`: the highest notification id reserved (`IDCounter`), so a
/// restart gives none again, of a notification the center never kept (transient, or of an app
/// whose `show-in-center` is off) neither.
struct IDMark {
    let path: String

    /// The mark kept, or 0 when there is none (a first start) or it cannot be read.
    func read() -> UInt32 {
        guard case .success(let text) = FileContents.read(path) else { return 0 }
        return UInt32(text.trimmingWhitespace) ?? 0
    }

    func write(_ mark: UInt32) {
        if let error = FileContents.write("\(mark)\n", to: path) {
            Log.warningOnce(key: "ids", "cannot keep the notification ids reserved in \(path): \(error.message); a restart may give one again")
        }
    }
}
