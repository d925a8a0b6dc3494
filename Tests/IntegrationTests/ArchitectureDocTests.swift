import Foundation
import Testing

/// ARCHITECTURE.md names files; each must exist, so the map stays true as the code moves.
@Suite struct ArchitectureDocTests {
    @Test func everyFileTheMapNamesExists() throws {
        let root = TestBus.packageRoot
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let named = text.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { name in ["Sources/", "Tests/", "dbus/", "bench/"].contains { name.hasPrefix($0) } }
        #expect(named.count > 20, "the map names the files of a notification's path")
        for path in named {
            // A pattern (`dbus/*.xml`) names its folder.
            let file = path.contains("*") ? String(path[..<path.lastIndex(of: "/")!]) : path
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "ARCHITECTURE.md names \(path)")
        }
    }
}
