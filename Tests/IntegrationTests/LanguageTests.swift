import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Chime speaks the person's language (design section 24): chimectl and chimed's own words in
/// Korean and German under their locales (made with localedef into a folder of the test's), the
/// same machine-readable output in every language, the catalogues whole and in step with the
/// sources, and text found as people read it.
@Suite struct LanguageTests {
    /// ko_KR.UTF-8 and de_DE.UTF-8, made once into a folder that LOCPATH names.
    static let locales: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-locales").path
        for name in ["ko_KR", "de_DE"] where !FileManager.default.fileExists(atPath: "\(folder)/\(name).UTF-8") {
            _ = try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let made = try? Subprocess("/usr/bin/localedef", ["-i", name, "-f", "UTF-8", "\(folder)/\(name).UTF-8"],
                                       environment: ProcessInfo.processInfo.environment)
            _ = made?.wait(timeout: 60)
        }
        return folder
    }()

    static func language(_ lang: String) -> [String: String] { ["LOCPATH": locales, "LANG": lang] }
    static let korean = language("ko_KR.UTF-8")

    @Test func chimectlSpeaksKoreanAndGerman() throws {
        let bus = try TestBus()
        #expect(try bus.run(TestBus.chimectl, ["help"], adding: Self.korean).stdout.hasPrefix("사용법: chimectl"))
        let mistake = try bus.run(TestBus.chimectl, ["focus", "on"], adding: Self.korean)
        #expect(mistake.status == 2 && mistake.stderr.contains("집중 모드 이름이 필요합니다"), "\(mistake.stderr)")
        #expect(try bus.run(TestBus.chimectl, ["focus", "status"], adding: Self.korean).stdout == "집중 모드: 꺼짐")
        #expect(try bus.run(TestBus.chimectl, ["dnd", "status"], adding: Self.language("de_DE.UTF-8")).stdout == "Nicht stören: aus")
        // LANGUAGE picks among languages, as gettext has it.
        #expect(try bus.run(TestBus.chimectl, ["focus", "status"], adding: Self.korean.merging(["LANGUAGE": "de"]) { $1 }).stdout == "Fokus: aus")
    }

    /// What scripts read is the same in every language.
    @Test func machineReadableOutputNeverChanges() throws {
        let bus = try TestBus(config: "[focus work]\nallowed-apps = Mail\n")
        _ = try bus.run("notify-send", ["-a", "Mail", "Lunch?", "12:30"])
        _ = try bus.chimectl("focus", "on", "work", "--for", "1h")
        _ = try bus.run("notify-send", ["-a", "Chat", "held", "x"])
        for command in [["status", "--json"], ["history", "--json"], ["list", "--json"], ["focus", "status", "--json"], ["apps", "list", "--json"],
                        ["badges", "--json"]] {
            let english = try bus.run(TestBus.chimectl, command).stdout
            let korean = try bus.run(TestBus.chimectl, command, adding: Self.korean).stdout
            #expect(!english.isEmpty && english == korean, "\(command)")
        }
    }

    /// chimed's own words (a Focus's recap, why) come in its language.
    @Test func chimedsOwnWordsAreKorean() throws {
        let bus = try TestBus(daemon: false, config: "[focus work]\n")
        bus.extraEnvironment = Self.korean
        try bus.startDaemon()
        _ = try bus.chimectl("focus", "on", "work")
        let id = try bus.run("notify-send", ["-p", "-a", "Chat", "held", "x"]).stdout
        let why = try bus.run(TestBus.chimectl, ["why", id]).stdout
        #expect(why.contains("보류: 집중 모드 Work이(가) Chat을(를) 허용하지 않음"), "\(why)")
        _ = try bus.chimectl("focus", "off")
        let client = try bus.client()
        #expect(client.waitUntil { (try? bus.chimectl("history").stdout.contains("Work 켜져 있는 동안")) == true },
                "\((try? bus.chimectl("history").stdout) ?? "")")
    }

    /// The center keeps a decision's reasons as messages and values, not as sentences: `why`
    /// speaks the language chimed runs in now, and the panel's reason for a held notification
    /// (`shown-reason`) is there in every language.
    @Test func reasonsAreSaidInTheLanguageChimedRunsInNow() throws {
        let bus = try TestBus(config: "[focus work]\n")
        _ = try bus.chimectl("focus", "on", "work")
        let id = try bus.run("notify-send", ["-p", "-a", "Chat", "held", "x"]).stdout
        #expect(try bus.chimectl("why", id).stdout.contains("held: Focus Work does not allow Chat"))
        bus.extraEnvironment = Self.language("de_DE.UTF-8")
        try bus.restartChimed()
        let why = try bus.run(TestBus.chimectl, ["why", id]).stdout
        #expect(why.contains("zurückgehalten: der Fokus Work erlaubt Chat nicht"), "\(why)")
        let record = try bus.chimectl("history", "--json").stdout
        #expect(record.contains(#""shown-reason":"zurückgehalten: der Fokus Work erlaubt Chat nicht""#), "\(record)")
    }

    /// Each language translates every message, and the template has exactly the sources' messages.
    @Test func theCataloguesAreWholeAndInStepWithTheSources() throws {
        let root = TestBus.packageRoot
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(UUID().uuidString).pot").path
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let extract = try Subprocess(root.appendingPathComponent("scripts/extract-messages").path, [fresh], environment: ProcessInfo.processInfo.environment)
        #expect(extract.wait(timeout: 60) == 0)
        // The messages, not where they stand: a line moved does not make the template stale.
        func messages(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("#") } }
        #expect(messages(try String(contentsOfFile: fresh, encoding: .utf8))
                    == messages(try String(contentsOf: root.appendingPathComponent("po/chime.pot"), encoding: .utf8)),
                "po/chime.pot is behind the sources: make pot, then make po-update and translate")
        for language in ["ko", "de"] {
            let check = try Subprocess("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", root.appendingPathComponent("po/\(language).po").path],
                                       environment: ProcessInfo.processInfo.environment)
            #expect(check.wait(timeout: 60) == 0, "\(check.stderr)")
            #expect(!check.stderr.contains("untranslated") && !check.stderr.contains("fuzzy"), "\(language): \(check.stderr)")
        }
    }

    /// Search folds case by Unicode, and finds Korean by a part of a word.
    @Test func searchFindsTextAsPeopleReadIt() throws {
        let bus = try TestBus()
        _ = try bus.run("notify-send", ["-a", "School", "Rentrée", "ÉCOLE fermée lundi"])
        _ = try bus.run("notify-send", ["-a", "Calendar", "회의", "내일 회의는 10시"])
        _ = try bus.run("notify-send", ["-a", "Other", "nothing", "to find"])
        #expect(try bus.chimectl("history", "--search", "école").stdout.contains("Rentrée"))
        #expect(!(try bus.chimectl("history", "--search", "école").stdout.contains("nothing")))
        #expect(try bus.chimectl("history", "--search", "회의는").stdout.contains("Calendar"))
        #expect(try bus.chimectl("history", "--search", "RENTRÉE").stdout.contains("School"))
    }

    /// A rule's `(?i)` folds by Unicode too.
    @Test func aRulesPatternIgnoresCaseByUnicode() throws {
        let bus = try TestBus(config: "[rule school]\nmatch-body = (?i)ÉCOLE\nlevel = passive\n")
        let id = try bus.run("notify-send", ["-p", "-a", "School", "Rentrée", "école fermée lundi"]).stdout
        #expect(try bus.chimectl("show", id).stdout.contains("level: passive"))
    }
}

/// No words reach the screen or the terminal unmarked: a string literal with words handed
/// straight to a GTK label, a pango layout, an accessible name or chimectl's output is English
/// in every language. Marked, it goes through `tr` (and into po/chime.pot).
@Suite struct UnmarkedWordsTests {
    static let calls = [#"gtk_label_new\(""#, #"gtk_button_new_with_label\(""#, #"gtk_toggle_button_new_with_label\(""#,
                        #"gtk_menu_item_new_with_label\(""#, #"gtk_entry_set_placeholder_text\([^"]*, ""#,
                        #"gtk_widget_set_tooltip_text\([^"]*, ""#, #"Accessible\.name\([^"]*, ""#, #"Accessible\.closeButton\(""#,
                        #"pango_layout_set_text\([^"]*, ""#, #"print\(""#, #"\.usage\(""#, #"\.failure\(""#, #"printEmpty\(""#]
    /// Literals that are not words for a person: a program's own name and version.
    static let allowed = [#"print("chimectl \(ChimeVersion.string)")"#, #"print("usage: chime-banners"#]

    /// Whether the literal a call of `pattern` begins has words of its own: its text outside
    /// interpolations (`\(name)` is data) has two letters in a row.
    static func hasWords(_ line: String, after pattern: Regex<AnyRegexOutput>) -> Bool {
        guard let match = line.firstMatch(of: pattern) else { return false }
        var text = "", depth = 0, escaped = false
        for character in line[match.range.upperBound...] {
            if depth > 0 {
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
                continue
            }
            if escaped { escaped = false; if character == "(" { depth = 1 }; continue }
            if character == "\\" { escaped = true; continue }
            if character == "\"" { break }
            text.append(character)
        }
        return text.contains(/[A-Za-z]{2}/)
    }

    @Test func everyLiteralWithWordsIsMarked() throws {
        let root = TestBus.packageRoot.appendingPathComponent("Sources")
        let pattern = try Regex("(" + Self.calls.joined(separator: "|") + ")")
        var found: [String] = []
        for folder in ["ChimePresenter", "ChimeBanners", "chime-banners", "chimectl"] {
            let directory = root.appendingPathComponent(folder)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    where Self.hasWords(String(line), after: pattern) && !Self.allowed.contains(where: { line.contains($0) }) {
                    found.append("\(folder)/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "words not marked for translation:\n\(found.joined(separator: "\n"))")
    }
}

/// Right-to-left text as people read it, in both programs that draw banners: a Hebrew body
/// stands against the banner's right side; the English summary above it against the left.
@Suite struct RightToLeftTests {
    @Test(arguments: Drawing.allCases) func aHebrewBodyIsRightAligned(_ drawing: Drawing) throws {
        let display = try XDisplay()
        let bus = try TestBus(display: display, drawing: drawing)
        _ = try bus.run("notify-send", ["-t", "0", "Note", "שלום"])
        let banner = try #require(try display.waitForWindows { $0.count == 1 }.first)
        let shot = bus.directory.appendingPathComponent("hebrew.png").path
        // Text's ink in the body's line (the banner's lowest third; no icon), near its left end
        // and near its right end.
        var left = 0.0, right = 0.0
        try display.screenshot(to: shot) { shot in
            let (y, height) = (banner.y + banner.height * 2 / 3, banner.height / 3 - 6)
            left = try XDisplay.brightness(x: banner.x + 10, y: y, width: 60, height: height, in: shot)
            right = try XDisplay.brightness(x: banner.x + banner.width - 80, y: y, width: 60, height: height, in: shot)
            return right - left >= 0.01
        }
        #expect(right - left >= 0.01, "left \(left), right \(right): \(shot)")
    }
}

/// The panel speaks the language chimed was started in: its header's words differ from the
/// English ones where they stand.
@Suite struct PanelLanguageTests {
    static func header(language: [String: String]) throws -> (shot: String, directory: URL, display: XDisplay, bus: TestBus) {
        let display = try XDisplay()
        let bus = try TestBus(daemon: false, display: display)
        bus.extraEnvironment = language
        try bus.startDaemon()
        #expect(try bus.chimectl("center", "open").status == 0)
        _ = try display.waitForWindows("chime-center") { $0.count == 1 }
        let shot = bus.directory.appendingPathComponent("panel.png").path
        // Drawn once its header's title is: the header's band is no longer blank.
        try display.screenshot(to: shot) { try XDisplay.brightness(x: display.width - 410, y: 15, width: 150, height: 30, in: $0) >= 0.02 }
        return (shot, bus.directory, display, bus)
    }

    @Test func thePanelsHeaderIsKoreanUnderKorean() throws {
        let english = try Self.header(language: [:])
        let korean = try Self.header(language: LanguageTests.korean)
        let crop = "380x40+\(english.display.width - 410)+10"
        let compare = try Subprocess("/usr/bin/compare", ["-metric", "AE", "(", english.shot, "-crop", crop, "+repage", ")",
                                                          "(", korean.shot, "-crop", crop, "+repage", ")", "null:"],
                                     environment: ProcessInfo.processInfo.environment)
        _ = compare.wait(timeout: 20)
        let differing = Double(compare.stderr.split(separator: " ").first ?? "") ?? 0
        #expect(differing > 100, "the header's pixels: \(compare.stderr)")
        #expect(try XDisplay.brightness(x: korean.display.width - 410, y: 15, width: 150, height: 30, in: korean.shot) > 0.02, "a title is drawn")
    }
}
