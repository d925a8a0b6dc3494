import CGLib
import ChimeCore
import ChimeGLib
import Glibc

/// Finds a themed icon's file as the freedesktop Icon Theme spec says, without GTK: the user's
/// theme (`DesktopSettings`), the themes it inherits, then hicolor, in each `icons` folder of the
/// XDG data folders; a folder whose size matches first, else the nearest; last /usr/share/pixmaps.
final class IconTheme {
    private struct Folder {
        var path: String
        var size: Int, minimum: Int, maximum: Int, threshold: Int, scale: Int
        var kind: String

        /// The spec's DirectoryMatchesSize.
        func matches(_ wanted: Int) -> Bool {
            guard scale == 1 else { return false }
            switch kind {
            case "Fixed": return size == wanted
            case "Scalable": return minimum <= wanted && wanted <= maximum
            default: return size - threshold <= wanted && wanted <= size + threshold
            }
        }

        /// The spec's DirectorySizeDistance.
        func distance(_ wanted: Int) -> Int {
            switch kind {
            case "Fixed": return abs(size * scale - wanted)
            case "Scalable": return wanted < minimum ? minimum - wanted : wanted > maximum ? wanted - maximum : 0
            default: return wanted < size - threshold ? size - threshold - wanted : wanted > size + threshold ? wanted - size - threshold : 0
            }
        }
    }

    /// Each theme's folders, in lookup order (the theme, what it inherits, hicolor).
    private var themes: [[Folder]] = []
    private var found: [String: String?] = [:]
    private let bases: [String]
    static let extensions = [".png", ".svg", ".xpm"]

    init(theme: String = "Adwaita") {
        var bases = [String(cString: g_get_user_data_dir()) + "/icons"]
        if let home = getenv("HOME") { bases.insert(String(cString: home) + "/.icons", at: 0) }
        if let dirs = g_get_system_data_dirs() {
            var index = 0
            while let dir = dirs[index] {
                var folder = String(cString: dir)
                while folder.hasSuffix("/") { folder.removeLast() }
                bases.append(folder + "/icons")
                index += 1
            }
        }
        self.bases = bases
        var seen = Set<String>()
        var queue = [theme]
        while !queue.isEmpty {
            let name = queue.removeFirst()
            guard seen.insert(name).inserted, let (folders, inherits) = load(name) else { continue }
            themes.append(folders)
            queue += inherits
            if queue.isEmpty, !seen.contains("hicolor") { queue.append("hicolor") }
        }
    }

    /// The file of icon `name` nearest `size` pixels, or nil when no theme has it.
    func file(_ name: String, size: Int) -> String? {
        let key = "\(name)@\(size)"
        if let known = found[key] { return known }
        let path = lookUp(name, size: size)
        found[key] = path
        return path
    }

    private func lookUp(_ name: String, size: Int) -> String? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        for folders in themes {
            var nearest: (distance: Int, path: String)?
            for folder in folders {
                for suffix in Self.extensions {
                    let path = folder.path + "/" + name + suffix
                    guard access(path, R_OK) == 0 else { continue }
                    if folder.matches(size) { return path }
                    let distance = folder.distance(size)
                    if nearest == nil || distance < nearest!.distance { nearest = (distance, path) }
                }
            }
            if let nearest { return nearest.path }
        }
        for suffix in Self.extensions {
            let path = "/usr/share/pixmaps/" + name + suffix
            if access(path, R_OK) == 0 { return path }
        }
        return nil
    }

    /// A theme's folders in every base folder that has it, and the themes it inherits.
    private func load(_ theme: String) -> ([Folder], [String])? {
        guard let base = bases.first(where: { access($0 + "/" + theme + "/index.theme", R_OK) == 0 }),
              case .success(let text) = FileContents.read(base + "/" + theme + "/index.theme") else { return nil }
        let index = KeyFile()
        guard index.load(text) == nil else { return nil }
        // The spec's lists are separated by commas, not GKeyFile's semicolons.
        func list(_ key: String) -> [String] {
            (index.string("Icon Theme", key) ?? "").split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        }
        let names = list("Directories") + list("ScaledDirectories")
        var folders: [Folder] = []
        for name in names {
            let size = Int(index.string(name, "Size") ?? "") ?? 0
            guard size > 0 else { continue }
            let folder = Folder(path: "", size: size, minimum: Int(index.string(name, "MinSize") ?? "") ?? size,
                                maximum: Int(index.string(name, "MaxSize") ?? "") ?? size,
                                threshold: Int(index.string(name, "Threshold") ?? "") ?? 2,
                                scale: Int(index.string(name, "Scale") ?? "") ?? 1,
                                kind: index.string(name, "Type") ?? "Threshold")
            for base in bases where access(base + "/" + theme + "/" + name, X_OK) == 0 {
                var located = folder
                located.path = base + "/" + theme + "/" + name
                folders.append(located)
            }
        }
        return (folders, list("Inherits"))
    }
}
