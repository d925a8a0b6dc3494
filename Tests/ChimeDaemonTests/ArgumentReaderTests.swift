import CDBus
import ChimeCore
import Testing
@testable import ChimeDBus

/// The reader walks the wire bytes itself: every type, its alignment, and both byte orders.
@Suite struct ArgumentReaderTests {
    func signal(_ arguments: [BusValue]) -> Message {
        .signal(path: "/test", interface: "dev.chime.Test", name: "Values", arguments: arguments)
    }

    @Test func everyTypeReadsBackAsWritten() {
        let values: [BusValue] = [
            .byte(7), .bool(true), .bool(false), .int16(-5), .uint16(65_000), .int32(-70_000), .uint32(4_000_000_000),
            .int64(-1 << 40), .uint64(.max), .double(0.5), .string("ünïcode ✓"), .string(""), .objectPath("/a/b"),
            .signature("a{sv}"), .bytes([1, 2, 3]), .bytes([]), .array(elementSignature: "i", []),
            .stringArray(["a", "", "ccc"]),
            // A byte before an 8-aligned structure, and an int64 inside it.
            .byte(1), .structure([.byte(2), .int64(3), .string("in")]),
            .vardict([("n", .int16(1)), ("nested", .variant(.stringArray(["x"]))), ("image", .structure([.int32(1), .bytes([9])]))]),
            .dictionary(keySignature: "u", valueSignature: "a(si)",
                        [(.uint32(1), .array(elementSignature: "(si)", [.structure([.string("k"), .int32(2)])]))]),
            .variant(.double(-2.25)),
        ]
        #expect(signal(values).arguments == values)
    }

    @Test func aTypedReadOfAnotherTypeReadsNothing() {
        var reader = ArgumentReader(signal([.uint32(1), .stringArray(["a", "A", "b"]), .vardict([("category", .string("v"))]), .string("x")]))
        #expect(reader.string() == nil)
        #expect(reader.uint32() == 1)
        #expect(reader.hints() == nil && reader.int32() == nil)
        let pairs = reader.stringPairs { $0 + "=" + $1 }
        #expect(pairs?.pairs == ["a=A"] && pairs?.count == 3, "the odd one out is counted and stepped over")
        let hints = reader.hints()
        #expect(hints == [.category: .string("v")])
        #expect(reader.string() == "x" && reader.isAtEnd)
        #expect(reader.string() == nil)
    }

    /// Hints come as `a{sv}`. The values of names Chime reads, of every shape, come out unwrapped
    /// (basic ones read in place, containers and variants inside the variant the
    /// long way), the last of a repeated name counts, and values of every shape under other names
    /// are stepped over: a step too short or too long would misread all that follows.
    @Test func hintsOfEveryShapeAreFoundAmongOthersOfEveryShape() {
        let read: [(HintName, BusValue)] = [
            (.urgency, .byte(1)), (.resident, .bool(true)), (.relevance, .double(0.25)), (.category, .string("text")),
            (.destructiveActions, .stringArray(["a", "b"])), (.imageData, .structure([.int32(1), .bytes([2, 3])])),
            (.thread, .variant(.variant(.int32(3)))), (.senderPID, .int64(-4)), (.x, .objectPath("/p")),
        ]
        let others: [BusValue] = [
            .byte(9), .int16(-2), .uint64(7), .signature("a{sv}"), .objectPath("/o"), .bytes([1, 2, 3, 4, 5]),
            .structure([.byte(1), .int64(2), .stringArray(["s", "t"])]), .variant(.variant(.string("deep"))),
            .vardict([("k", .variant(.double(1.5))), ("l", .bytes([]))]),
            .dictionary(keySignature: "u", valueSignature: "a(si)",
                        [(.uint32(1), .array(elementSignature: "(si)", [.structure([.string("k"), .int32(2)])]))]),
        ]
        var pairs: [(String, BusValue)] = [("urgency", .byte(0))]
        for (index, (name, value)) in read.enumerated() {
            pairs.append(("x-other-\(index)", others[index % others.count]))
            pairs.append((name.text, value))
        }
        pairs += others.enumerated().map { ("x-more-\($0.offset)", $0.element) }
        var reader = ArgumentReader(signal([.vardict(pairs), .string("after")]))
        let hints = reader.hints()
        #expect(hints?.count == read.count)
        for (name, value) in read { #expect(hints?[name] == value.unwrapped, "\(name.text)") }
        #expect(reader.string() == "after" && reader.isAtEnd)
    }

    /// Each dict entry starts on an 8-byte boundary, which hides a step over a value a few bytes
    /// short or long when the value happens to end well before one. Keys of every length mod 8
    /// end each shape at every offset, so one of them shows any wrong step.
    @Test(arguments: [
        BusValue.byte(9), .bool(false), .int16(-2), .int32(5), .uint64(7), .double(2.5), .string("s"), .signature("a{sv}"),
        .objectPath("/o"), .bytes([1, 2, 3, 4, 5]), .stringArray(["s", "tt"]),
        // Fields packed one after another, of bytes that are not zero: a wrong step inside a
        // structure lands on them, not on padding that reads as an empty key.
        .structure([.byte(1), .int64(0x0102_0304_0506_0708), .byte(3), .uint16(0x0909), .string("tail-of-it")]),
        .structure([.signature("ai"), .byte(7), .int16(-2), .bool(true), .int32(-3), .byte(4), .double(-1.5), .string("end")]),
        .structure([.byte(5), .array(elementSignature: "t", [.uint64(0x0a0b_0c0d_0e0f_1011)]), .byte(6), .objectPath("/x/y")]),
        // Signatures read their length from the next byte, unaligned: a step short by the
        // padding before a 2- or 4-byte value reads one of that value's bytes as a length.
        .structure([.byte(1), .int16(-2), .signature("ai"), .signature("ab"), .byte(6), .int32(-3), .signature("x"), .string("end")]),
        .variant(.variant(.string("deep"))), .vardict([("k", .variant(.double(1.5))), ("l", .bytes([]))]),
        .dictionary(keySignature: "u", valueSignature: "a(si)",
                    [(.uint32(1), .array(elementSignature: "(si)", [.structure([.string("k"), .int32(2)])]))]),
    ])
    func valuesUnderOtherNamesAreSteppedOverExactly(other: BusValue) {
        for padding in 0..<8 {
            let key = "x-other" + String(repeating: "-", count: padding)
            var reader = ArgumentReader(signal([.vardict([(key, other), ("category", .string("next"))]), .string("after")]))
            let hints = reader.hints()
            #expect(hints == [.category: .string("next")], "after \(key)")
            #expect(reader.string() == "after")
        }
    }

    @Test func aBigEndianMessageReadsTheSame() throws {
        // A signal as a big-endian client marshals it: header fields, then the body (u s).
        var bytes: [UInt8] = []
        func pad(_ boundary: Int) { while bytes.count % boundary != 0 { bytes.append(0) } }
        func uint32(_ value: UInt32) { pad(4); bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        func string(_ text: String) { uint32(UInt32(text.utf8.count)); bytes += Array(text.utf8) + [0] }
        func field(_ code: UInt8, _ type: Character, _ text: String) {
            pad(8)
            bytes += [code, 1, type.asciiValue!, 0]
            if type == "g" { bytes += [UInt8(text.utf8.count)] + Array(text.utf8) + [0] } else { string(text) }
        }
        bytes = [UInt8(ascii: "B"), 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
        field(1, "o", "/test")
        field(2, "s", "dev.chime.Test")
        field(3, "s", "Values")
        field(8, "g", "us")
        let fieldsLength = UInt32(bytes.count - 16)
        pad(8)
        let bodyStart = bytes.count
        uint32(0x0102_0304)
        string("big")
        let bodyLength = UInt32(bytes.count - bodyStart)
        bytes.replaceSubrange(4..<8, with: withUnsafeBytes(of: bodyLength.bigEndian, Array.init))
        bytes.replaceSubrange(12..<16, with: withUnsafeBytes(of: fieldsLength.bigEndian, Array.init))
        var error = DBusError()
        dbus_error_init(&error)
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        defer { dbus_error_free(&error) }
        let message = try #require(raw.map { Message(owning: $0) }, "libdbus refused the message")
        #expect(message.arguments == [.uint32(0x0102_0304), .string("big")])
    }
}
