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
        var reader = ArgumentReader(signal([.uint32(1), .stringArray(["a"]), .vardict([("k", .string("v"))]), .string("x")]))
        #expect(reader.string() == nil)
        #expect(reader.uint32() == 1)
        #expect(reader.vardictPairs() == nil && reader.int32() == nil)
        #expect(reader.strings() == ["a"])
        let pairs = reader.vardictPairs()
        #expect(pairs?.count == 1 && pairs?.first?.key == "k" && pairs?.first?.value == .string("v"))
        #expect(reader.string() == "x" && reader.isAtEnd)
        #expect(reader.string() == nil)
    }

    /// Hints come as `a{sv}`: basic values are read in place, containers and variants inside
    /// the variant the long way; each comes out unwrapped, and the reading goes on after it.
    @Test func hintPairsOfEveryShapeReadUnwrapped() {
        let hints: [(String, BusValue)] = [
            ("y", .byte(1)), ("b", .bool(true)), ("d", .double(0.25)), ("s", .string("text")),
            ("as", .stringArray(["a", "b"])), ("st", .structure([.int32(1), .bytes([2, 3])])),
            ("v", .variant(.variant(.int32(3)))), ("x", .int64(-4)), ("o", .objectPath("/p")),
        ]
        var reader = ArgumentReader(signal([.vardict(hints), .string("after")]))
        let pairs = reader.vardictPairs()
        #expect(pairs?.map(\.key) == hints.map(\.0))
        #expect(pairs?.map(\.value) == hints.map { $0.1.unwrapped })
        #expect(reader.string() == "after" && reader.isAtEnd)
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
