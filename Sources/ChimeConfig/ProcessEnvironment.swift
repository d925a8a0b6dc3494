import Glibc

/// The environment as a dictionary, read from `environ` (Foundation's ProcessInfo would pull
/// Foundation into chimed).
public func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        entry += 1
    }
    return result
}

/// An XDG base folder with Chime's subfolder: `$VARIABLE/chime` when it is an absolute path,
/// else `$HOME/FALLBACK/chime`, as the XDG Base Directory spec has it.
public func chimeFolder(_ variable: String, fallback: String, environment: [String: String]) -> String {
    if let base = environment[variable], base.hasPrefix("/") { return base + "/chime" }
    return (environment["HOME"] ?? "/") + "/" + fallback + "/chime"
}

/// The folder this program runs from (symbolic links resolved): where chimed looks for
/// `chime-presenter` and, from it, for its sound theme.
public func executableFolder() -> String? {
    guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
    defer { free(resolved) }
    let path = String(cString: resolved)
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}
