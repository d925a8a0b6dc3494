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

    /// The path of one notification: at most six hops, and each function a hop names, as
    /// "`file` (`function`)", is declared in that file.
    @Test func theNotificationsPathHasAtMostSixHopsEachInItsFile() throws {
        let root = TestBus.packageRoot
        let text = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## One notification, hop by hop").last?
            .components(separatedBy: "\n## ").first)
        let hops = section.split(separator: "\n").filter { $0.range(of: #"^\d+\. \*\*"#, options: .regularExpression) != nil }
        #expect((3...6).contains(hops.count), "\(hops.count) hops")
        let named = try NSRegularExpression(pattern: #"`(Sources/[^`]+\.swift)`,?\s+\(`(\w+)`"#)
        let pairs = named.matches(in: section, range: NSRange(section.startIndex..., in: section)).map { match in
            (String(section[Range(match.range(at: 1), in: section)!]), String(section[Range(match.range(at: 2), in: section)!]))
        }
        #expect(pairs.count >= 6, "each hop names a file and a function")
        for (file, function) in pairs {
            let source = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            #expect(source.contains("func \(function)(") || source.contains("func \(function)<"), "\(file) declares no \(function)")
        }
    }
}
