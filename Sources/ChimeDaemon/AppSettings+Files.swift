import ChimeCore

/// App settings as the edge takes them, from the config or `chimectl apps set`: what
/// `AppSettings.set` checks, and for a `sound` that names a file, that the file is a sound
/// chimed may play (the core reads no files).
extension AppSettings {
    mutating func setChecked(_ key: String, to text: String) -> String? {
        if let problem = set(key, to: text) { return problem }
        if key == "sound", let file = sound, file.hasPrefix("/"), case .failure(let problem) = SoundFile.check(file) {
            return "\(problem)"
        }
        return nil
    }
}
