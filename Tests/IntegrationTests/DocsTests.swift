import ChimeTestSupport
import Foundation
import Testing

/// The docs a user reads: the man pages render cleanly at 80 columns, chimectl(1) has every
/// command `chimectl help` lists, and the README stays short with every link going somewhere.
@Suite struct DocsTests {
    static let root = TestBus.packageRoot
    static let pages = ["chimed.1", "chimectl.1", "chime.conf.5", "chime-hints.7"]

    static func run(_ command: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let process = try Subprocess(command, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        let status = process.wait(timeout: 60)
        return (status, process.stdout, process.stderr)
    }

    @Test(arguments: pages) func aPageRendersWithoutWarnings(_ page: String) throws {
        let built = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString)-\(page)").path
        defer { try? FileManager.default.removeItem(atPath: built) }
        let source = Self.root.appendingPathComponent("docs/man/\(page).scd").path
        let scdoc = try Self.run("/bin/sh", ["-c", "scdoc < \"$0\" > \"$1\"", source, built])
        #expect(scdoc.status == 0, "\(scdoc.stderr)")
        let man = try Self.run("/usr/bin/man", ["--warnings", "-l", built], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(man.status == 0 && man.stderr.isEmpty, "\(page): \(man.stderr)")
        #expect(man.stdout.contains("NAME") && man.stdout.contains("SEE ALSO"))
    }

    /// Each command `chimectl help` lists (its first word, and the second for focus, apps,
    /// summary) is a term of chimectl(1)'s COMMANDS.
    @Test func chimectlsPageHasEveryCommand() throws {
        let help = try Self.run(TestBus.chimectl, ["help"]).stdout
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/man/chimectl.1.scd"), encoding: .utf8)
        let terms = page.split(separator: "\n").filter { $0.hasPrefix("*") }.map { $0.dropFirst().split(separator: "*").first.map(String.init) ?? "" }
        var commands: [String] = []
        for line in help.split(separator: "\n") {
            // A command begins its line two spaces in; what explains it is further in.
            let words = line.split(separator: " ")
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let first = words.first else { continue }
            let grouped = ["focus", "apps", "summary"].contains(String(first)) && words.count > 1
            commands.append(grouped ? "\(first) \(words[1])" : String(first))
        }
        #expect(commands.count > 30, "\(commands)")
        for command in commands {
            #expect(terms.contains { $0 == command || $0.hasPrefix(command + " ") }, "chimectl(1) has no entry for \(command)")
        }
    }

    /// A README a newcomer finishes: at most 25,000 bytes, and every link resolves to a file of
    /// the repository or a heading of the README.
    @Test func theReadmeIsShortAndItsLinksResolve() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(text.utf8.count <= 25_000)
        let anchors = Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
            String(heading.drop { $0 == "#" }.dropFirst().lowercased().compactMap { character -> Character? in
                character == " " ? "-" : (character.isLetter || character.isNumber || character == "-" ? character : nil)
            })
        })
        let links = try Regex(#"\]\(([^)\s]+)\)"#)
        var count = 0
        for match in text.matches(of: links) {
            let target = String(match.output[1].substring ?? "")
            count += 1
            if target.hasPrefix("#") {
                #expect(anchors.contains(String(target.dropFirst())), "README links to a heading it has not: \(target)")
            } else if !target.contains("://") {
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(target).path), "README links to \(target)")
            }
        }
        #expect(count > 5)
    }

    /// NEWS.md's newest release is the version the programs say (what is not released yet goes
    /// under "## Unreleased" above it).
    @Test func theNewestReleaseIsTheProgramsVersion() throws {
        let news = try String(contentsOf: Self.root.appendingPathComponent("NEWS.md"), encoding: .utf8)
        let newest = try #require(news.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" }?
            .split(separator: " ").dropFirst().first)
        #expect(try Self.run(TestBus.chimectl, ["--version"]).stdout == "chimectl \(newest)\n")
        #expect(try Self.run(TestBus.chimed, ["--version"]).stdout.hasPrefix("chimed \(newest)"))
    }
}
