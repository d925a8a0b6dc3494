import Testing
@testable import ChimeCore

@Suite struct HintsTests {
    func decode(_ raw: [String: BusValue]) -> (NotificationHints, [String]) {
        var problems: [String] = []
        let hints = NotificationHints(decoding: raw, problems: &problems)
        return (hints, problems)
    }

    @Test(arguments: [BusValue.byte(2), .int32(2), .uint32(2), .int64(2), .int16(2)])
    func urgencyTakesAnyIntegerWidth(value: BusValue) {
        #expect(decode(["urgency": .variant(value)]).0.urgency == .critical)
    }

    /// Hints Chime reads are found among any number of others, and the last of a repeated name counts.
    @Test(arguments: [0, 40])
    func hintsAmongManyOthersAreFoundAndTheLastOfARepeatedNameCounts(others: Int) {
        var problems: [String] = []
        let raw: [(key: String, value: BusValue)] = [("urgency", .byte(0))]
            + (0..<others).map { ("x-other-\($0)", .string("\($0)")) }
            + [("category", .string("email")), ("urgency", .byte(2))]
        let hints = NotificationHints(decoding: raw, problems: &problems)
        #expect(hints.urgency == .critical)
        #expect(hints.category == "email")
        #expect(problems.isEmpty)
    }

    /// A hint is read through any number of variant wrappers, whatever its type.
    @Test func valuesAreReadInsideVariants() {
        let (hints, problems) = decode([
            "urgency": .variant(.variant(.byte(2))), "category": .variant(.variant(.string("email"))),
            "resident": .variant(.bool(true)), "x-chime-relevance": .variant(.variant(.double(0.5))),
            "x-chime-destructive-actions": .variant(.stringArray(["delete"])),
        ])
        #expect(problems.isEmpty)
        #expect(hints.urgency == .critical && hints.category == "email" && hints.resident)
        #expect(hints.relevance == 0.5 && hints.destructiveActions == ["delete"])
    }

    /// Each name is found from its text, and only from its text; they fit the reader's 32 slots.
    @Test func everyHintNameIsFoundByItsTextAlone() {
        for name in HintName.allCases {
            #expect(HintName(name.text) == name)
            #expect(HintName(name.text + "s") == nil)
            #expect(HintName(String(name.text.dropLast()) + "?") == nil)
        }
        #expect(HintName("") == nil)
        #expect(HintName(String(repeating: "x", count: 200)) == nil)
    }

    @Test func urgencyAsAStringIsDroppedAndReported() {
        let (hints, problems) = decode(["urgency": .string("critical")])
        #expect(hints.urgency == nil)
        #expect(problems == ["hint 'urgency' must be an integer, got type 's'"])
    }

    @Test func urgencyOutOfRangeIsDropped() {
        let (hints, problems) = decode(["urgency": .byte(7)])
        #expect(hints.urgency == nil)
        #expect(problems.count == 1)
    }

    @Test func everyStandardHintIsDecoded() {
        let (hints, problems) = decode([
            "category": .string("im.received"), "desktop-entry": .string("org.example.Chat"),
            "image-path": .string("/tmp/a.png"), "sound-file": .string("/tmp/a.oga"),
            "sound-name": .string("message-new-instant"), "suppress-sound": .bool(true),
            "transient": .bool(true), "resident": .bool(true), "action-icons": .bool(true),
            "x": .int32(10), "y": .int32(20), "value": .int32(150), "sender-pid": .int64(42),
            "x-kde-reply-placeholder-text": .string("Reply…"),
            "x-kde-reply-submit-button-text": .string("Send"),
            "x-kde-reply-submit-button-icon-name": .string("document-send"),
            "x-unknown": .string("ignored"),
        ])
        #expect(problems.isEmpty)
        #expect(hints.category == "im.received")
        #expect(hints.desktopEntry == "org.example.Chat")
        #expect(hints.imagePath == "/tmp/a.png")
        #expect(hints.soundFile == "/tmp/a.oga" && hints.soundName == "message-new-instant")
        #expect(hints.suppressSound && hints.transient && hints.resident && hints.actionIcons)
        #expect(hints.position == .init(x: 10, y: 20))
        #expect(hints.progress == 100)
        #expect(hints.senderPID == 42)
        #expect(hints.replyPlaceholder == "Reply…" && hints.replySubmitText == "Send")
        #expect(hints.replySubmitIcon == "document-send")
    }

    @Test func legacyImagePathAliasIsRead() {
        #expect(decode(["image_path": .string("dialog-information")]).0.imagePath == "dialog-information")
    }

    @Test func chimeHintsAreDecoded() {
        let (hints, problems) = decode([
            "x-chime-interruption-level": .string("time-sensitive"), "x-chime-relevance": .double(0.8),
            "x-chime-marketing": .bool(true), "x-chime-thread": .string("t1"), "x-chime-sender": .string("Ada"),
            "x-chime-hidden-preview-body": .string("New message"),
            "x-chime-destructive-actions": .stringArray(["delete"]),
        ])
        #expect(problems.isEmpty)
        #expect(hints.interruptionLevel == .timeSensitive && hints.relevance == 0.8 && hints.marketing)
        #expect(hints.thread == "t1" && hints.sender == "Ada" && hints.hiddenPreviewBody == "New message")
        #expect(hints.destructiveActions == ["delete"])
    }

    @Test func unknownLevelsAndRelevanceOutOfRangeAreReported() {
        let (hints, problems) = decode(["x-chime-interruption-level": .string("urgent"), "x-chime-relevance": .double(3)])
        #expect(hints.interruptionLevel == nil && hints.relevance == nil)
        #expect(problems.count == 2)
    }

    static func image(width: Int32 = 2, height: Int32 = 2, rowstride: Int32 = 8, alpha: Bool = true,
                      channels: Int32 = 4, bytes: Int = 16) -> BusValue {
        .structure([.int32(width), .int32(height), .int32(rowstride), .bool(alpha), .int32(8), .int32(channels),
                    .bytes([UInt8](repeating: 0x80, count: bytes))])
    }

    @Test(arguments: ["image-data", "image_data", "icon_data"])
    func imageDataAndItsAliasesAreDecoded(name: String) {
        #expect(decode([name: Self.image()]).0.imageData?.width == 2)
    }

    @Test func imageDataWinsOverItsAliases() {
        let hints = decode(["image-data": Self.image(width: 1, rowstride: 4, bytes: 8), "icon_data": Self.image()]).0
        #expect(hints.imageData?.width == 1)
    }

    @Test func theLastRowMayBeUnpadded() {
        // 3 px RGB rows are 9 bytes, padded to a stride of 12: 12 + 9 bytes.
        #expect(decode(["image-data": Self.image(width: 3, rowstride: 12, alpha: false, channels: 3, bytes: 21)]).0.imageData != nil)
    }

    @Test(arguments: [
        HintsTests.image(bytes: 15),                         // byte count does not match
        HintsTests.image(width: -2, bytes: 16),              // negative width
        HintsTests.image(width: 100_000, height: 100_000),   // huge
        HintsTests.image(rowstride: 4),                      // stride shorter than a row
        HintsTests.image(alpha: true, channels: 3),          // channels disagree with alpha
        BusValue.string("not an image"),
    ])
    func invalidImageDataIsDroppedAndReported(value: BusValue) {
        let (hints, problems) = decode(["image-data": value])
        #expect(hints.imageData == nil)
        #expect(problems.count == 1)
    }

    @Test func appIdentityIsTheDesktopEntryElseTheAppName() {
        #expect(NotificationRequest.make(app: "Firefox", hints: ["desktop-entry": .string("firefox")]).appIdentity == "firefox")
        #expect(NotificationRequest.make(app: "Firefox").appIdentity == "Firefox")
    }
}

@Suite struct DurationTextTests {
    @Test(arguments: [("45m", Int64(2700)), ("1h30m", 5400), ("90s", 90), ("2h", 7200), ("1d", 86400)])
    func parses(text: String, seconds: Int64) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "45", "m", "-5m", "5x", "0m", "1000d"])
    func refuses(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}

@Suite struct JSONTextTests {
    @Test func stringsAreQuotedAndEscapedOnlyWhereNeeded() {
        #expect(JSONText.encode(.string("plain text, ünïcode ✓")) == "\"plain text, ünïcode ✓\"")
        #expect(JSONText.encode(.string("say \"hi\"\\n\u{1}")) == "\"say \\\"hi\\\"\\\\n\\u0001\"")
        #expect(JSONText.encode(.string("line\nbreak\ttab")) == "\"line\\nbreak\\ttab\"")
        #expect(JSONText.encode(.string("ü\u{1F}✓\r")) == "\"ü\\u001f✓\\r\"")
        #expect(JSONText.encode(.stringArray(["default", "Open"])) == "[\"default\",\"Open\"]")
    }

    @Test func aStringArrayWrittenDirectlyMatchesTheGeneralEncoder() {
        for strings in [[], ["one"], ["default", "Open", "reply", "Re\"ply\n"]] {
            #expect(JSONText.stringArray(strings) == JSONText.encode(.stringArray(strings)))
        }
        #expect(JSONText.stringArray(["ü\"", "✓\\"]) == "[\"ü\\\"\",\"✓\\\\\"]")
        #expect(JSONText.encode(.vardict([("a", .int32(1)), ("b", .structure([.bool(true), .double(0.5)]))]))
                == "{\"a\":1,\"b\":[true,0.5]}")
    }
}
