import ChimeCore

/// An app setting as `chimectl apps set` gives it: what `AppSettings.set` checks, and for a
/// `sound` that names a file, that the file is a sound chimed may play (the core reads no
/// files). The config's sound files are not checked as it is read: one missing for a while (on a
/// drive not mounted yet) would have the whole file refused; each is checked before it plays.
extension AppSettings {
    mutating func setChecked(_ key: String, to text: String) -> String? {
        if let problem = set(key, to: text) { return problem }
        if key == "sound", let file = sound, file.hasPrefix("/"), case .failure(let problem) = SoundFile.check(file) {
            return "\(problem)"
        }
        return nil
    }
}
