@testable import ChimeConfig
import ChimeCore
import Foundation
import Testing

/// One declaration of each config key (`Setting.all`): the loader takes exactly its keys, its
/// defaults are the program's, and chime.conf(5) and chime.conf.example say the same.
@Suite struct SettingTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A value each key without a default takes.
    static let samples: [String: String] = [
        "output": "DP-1", "times": "08:00", "allowed-apps": "mail", "allowed-people": "Ada", "schedule": "daily 09:00-10:00",
        "authorization": "allowed", "quiet-when-focused": "true", "hold-in-fullscreen": "true", "now-playing": "true",
        "match-app": "^mail$", "match-summary": "x", "match-body": "y", "match-category": "email", "match-urgency": "low",
        "level": "passive", "banners": "true", "timeout": "default", "sounds": "true", "sound": "default", "badges": "true",
        "previews": "default", "delivery": "immediate", "show-in-center": "true", "exec": "true",
    ]

    func load(_ text: String) throws -> ConfigLoader.Loaded {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString).conf").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ConfigLoader(path: path).load(base: ChimeSettings()).get()
    }

    static func section(_ section: Setting.Section, defaultsOnly: Bool) -> String {
        let header = switch section {
        case .focus, .app, .rule: "[\(section.rawValue) test]"
        default: "[\(section.rawValue)]"
        }
        let lines = Setting.all.filter { $0.section == section }.compactMap { setting -> String? in
            guard let value = setting.byDefault ?? (defaultsOnly ? nil : samples[setting.key]) else { return nil }
            return "\(setting.key) = \(value)"
        }
        return ([header] + lines).joined(separator: "\n") + "\n"
    }

    /// Every key of the table, set to its default, is taken without a word and changes nothing:
    /// the table's defaults are the program's.
    @Test(arguments: [Setting.Section.general, .popups, .panel, .sounds])
    func theDefaultsAreTheProgramsDefaults(_ section: Setting.Section) throws {
        let loaded = try load(Self.section(section, defaultsOnly: true))
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(loaded.settings == ChimeSettings())
    }

    @Test func anAppsDefaultsAreAnUnnamedAppsSettings() throws {
        let loaded = try load(Self.section(.app, defaultsOnly: true))
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        let apps = AppRegistry()
        #expect(apps.settings(for: "test", config: loaded.settings) == apps.settings(for: "other", config: loaded.settings))
    }

    /// The loader takes every key of the table in its section, and none it does not declare.
    @Test(arguments: Setting.Section.allCases) func theLoaderTakesEveryKey(_ section: Setting.Section) throws {
        let loaded = try load(Self.section(section, defaultsOnly: false))
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        let unknown = try load(Self.section(section, defaultsOnly: false) + "no-such-key = 1\n")
        #expect(unknown.problems.count == 1)
    }

    /// The keys a file names, per section kind (`[focus work]` is `focus`), and the values of
    /// those not commented out. A `#` right before a key or a section is one turned off.
    static func exampleKeys(_ text: String) -> (keys: [String: Set<String>], values: [String: [String: String]]) {
        var keys: [String: Set<String>] = [:], values: [String: [String: String]] = [:]
        var section = ""
        for raw in text.split(separator: "\n") {
            let commented = raw.hasPrefix("#")
            guard !raw.hasPrefix("# ") else { continue }  // prose
            let line = (commented ? raw.dropFirst() : raw[...]).trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
                section = String(line[line.index(after: line.startIndex)..<end].split(separator: " ").first ?? "")
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLowercase || $0 == "-" }) else { continue }
            keys[section, default: []].insert(parts[0])
            if !commented { values[section, default: [:]][parts[0]] = parts[1] }
        }
        return (keys, values)
    }

    @Test func theExampleNamesEveryKeyWithItsDefault() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("chime.conf.example"), encoding: .utf8)
        let example = Self.exampleKeys(text)
        for section in Setting.Section.allCases {
            #expect(example.keys[section.rawValue] ?? [] == Set(Setting.keys(in: section)), "[\(section.rawValue)]")
        }
        for setting in Setting.all {
            guard let value = example.values[setting.section.rawValue]?[setting.key] else { continue }
            #expect(value == setting.byDefault, "[\(setting.section.rawValue)] \(setting.key)")
        }
    }

    /// chime.conf(5) has each key under its section (`*key* = _what it takes_`), with its
    /// default, and no key the table does not have.
    @Test func theManPageNamesEveryKeyWithItsDefault() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/man/chime.conf.5.scd"), encoding: .utf8)
        let sections = page.components(separatedBy: "\n## [").dropFirst()
        for section in Setting.Section.allCases {
            let text = try #require(sections.first { $0.hasPrefix(section.rawValue) }, "[\(section.rawValue)]")
                .components(separatedBy: "\n# ").first ?? ""
            let entries = text.components(separatedBy: "\n*").dropFirst()
            let named = entries.compactMap { $0.components(separatedBy: "* = ").count > 1 ? $0.components(separatedBy: "* = ")[0] : nil }
            #expect(named == Setting.keys(in: section), "[\(section.rawValue)]")
            for setting in Setting.all where setting.section == section {
                let entry = entries.first { $0.hasPrefix(setting.key + "* = ") } ?? ""
                let unescaped = entry.replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "\n\t", with: " ")
                if let value = setting.byDefault {
                    #expect(unescaped.contains("Default: *\(value)*."), "[\(section.rawValue)] \(setting.key)")
                } else {
                    #expect(!unescaped.contains("Default:"), "[\(section.rawValue)] \(setting.key)")
                }
            }
        }
    }
}
