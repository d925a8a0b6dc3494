import Testing
@testable import ChimeBanners

/// The XSETTINGS wire format, as a settings daemon writes it in either byte order, and what is
/// made of one that is cut short or lies about its lengths.
@Suite struct XSettingsTests {
    /// One setting: type, name, serial and value, each part padded to four bytes.
    private func setting(_ name: String, integer: Int32? = nil, string: String? = nil, bigEndian: Bool) -> [UInt8] {
        func number(_ value: UInt32, _ count: Int) -> [UInt8] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
            return bigEndian ? bytes.reversed() : bytes
        }
        func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + Array(repeating: 0, count: (4 - bytes.count % 4) % 4) }
        var bytes: [UInt8] = [string == nil ? 0 : 1, 0] + number(UInt32(name.utf8.count), 2) + padded(Array(name.utf8)) + number(7, 4)
        if let integer { bytes += number(UInt32(bitPattern: integer), 4) }
        if let string { bytes += number(UInt32(string.utf8.count), 4) + padded(Array(string.utf8)) }
        return bytes
    }

    private func settings(_ parts: [[UInt8]], bigEndian: Bool, count: UInt32? = nil) -> [UInt8] {
        let total = count ?? UInt32(parts.count)
        let countBytes = (0..<4).map { UInt8(truncatingIfNeeded: total >> (8 * UInt32($0))) }
        return [bigEndian ? 1 : 0, 0, 0, 0, 0, 0, 0, 1] + (bigEndian ? countBytes.reversed() : countBytes) + parts.flatMap { $0 }
    }

    @Test(arguments: [false, true]) func integersAndStringsAreReadInEitherByteOrder(_ bigEndian: Bool) {
        let bytes = settings([setting("Gtk/FontName", string: "Cantarell 11", bigEndian: bigEndian),
                              setting("Xft/DPI", integer: 196_608, bigEndian: bigEndian),
                              setting("Gdk/WindowScalingFactor", integer: 2, bigEndian: bigEndian)], bigEndian: bigEndian)
        let values = XSettings.decode(bytes)
        #expect(values["Gtk/FontName"] == .string("Cantarell 11"))
        #expect(values["Xft/DPI"] == .integer(196_608))
        #expect(values["Gdk/WindowScalingFactor"] == .integer(2))
    }

    /// A property cut short or claiming more settings or longer strings than it holds gives what
    /// came before the fault, and never reads past its end.
    @Test func aCutOrLyingPropertyGivesWhatCameBeforeTheFault() {
        let whole = settings([setting("Net/IconThemeName", string: "Papirus", bigEndian: false),
                              setting("Gtk/FontName", string: "Sans 12", bigEndian: false)], bigEndian: false, count: 1_000_000)
        #expect(XSettings.decode(whole) == ["Net/IconThemeName": .string("Papirus"), "Gtk/FontName": .string("Sans 12")])
        for length in 0..<whole.count {
            let values = XSettings.decode(Array(whole.prefix(length)))
            #expect(values.count <= 2)
        }
        var lying = whole
        lying[12 + 2] = 0xff
        #expect(XSettings.decode(lying).isEmpty, "a name longer than the property")
    }

    @Test func theXftDPIResourceIsFoundAmongOthers() {
        #expect(XSettings.xftDPI(in: "Xft.antialias:\t1\nXft.dpi:\t192\nXcursor.size: 24\n") == 192)
        #expect(XSettings.xftDPI(in: "Xft.dpi: 120.5") == 120.5)
        #expect(XSettings.xftDPI(in: "Xft.dpi: big\nXft.hinting: 1") == nil)
        #expect(XSettings.xftDPI(in: "") == nil)
    }
}
