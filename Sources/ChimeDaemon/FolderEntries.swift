import Glibc

/// The names in a folder (without "." and ".."), each with what `lstat` says of it: never
/// followed through a symbolic link.
enum FolderEntries {
    struct Entry {
        var name: String
        var path: String
        var info: stat

        var isFile: Bool { info.st_mode & S_IFMT == S_IFREG }
        var isFolder: Bool { info.st_mode & S_IFMT == S_IFDIR }
    }

    /// Empty when the folder cannot be read (missing, not a folder).
    static func list(_ folder: String) -> [Entry] {
        guard let listing = opendir(folder) else { return [] }
        defer { closedir(listing) }
        var entries: [Entry] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let path = folder + "/" + name
            var info = stat()
            if lstat(path, &info) == 0 { entries.append(Entry(name: name, path: path, info: info)) }
        }
        return entries
    }
}
