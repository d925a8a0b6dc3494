import Foundation
import Testing
@testable import ChimeDaemon

@Suite struct ImageReferenceTests {
    let folder = temporaryFolder("image")

    func file(_ name: String, _ bytes: [UInt8]) -> String {
        let path = folder.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 24)

    @Test func aSmallPngIsAccepted() throws {
        let path = file("a.png", Self.png)
        #expect(try ImageReference.check(path).get() == path)
        #expect(try ImageReference.check("file://" + path).get() == path)
    }

    @Test func anSvgIsKnownByItsElementAfterAnyProlog() throws {
        let svg = file("a.svg", Array("<?xml version=\"1.0\"?>\n<!-- drawn by hand -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        #expect(try ImageReference.check(svg).get() == svg)
        let other = file("b.svg", Array("<?xml version=\"1.0\"?>\n<html/>".utf8))
        #expect(throws: HintProblemMatcher.self, performing: { try Self.refuse(other) })
    }

    @Test func iconNamesAreAccepted() throws {
        #expect(try ImageReference.check("dialog-information").get() == "dialog-information")
    }

    @Test func aFifoIsRefusedWithoutBlocking() throws {
        let path = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: HintProblemMatcher.self, performing: { try Self.refuse(path) })
    }

    @Test func aDeviceIsRefused() {
        #expect(throws: HintProblemMatcher.self, performing: { try Self.refuse("/dev/zero") })
    }

    @Test func aFileOverTenMegabytesIsRefused() throws {
        let path = folder.appendingPathComponent("big.png").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(Self.png))
        #expect(truncate(path, 50 * 1024 * 1024) == 0)
        #expect(throws: HintProblemMatcher.self, performing: { try Self.refuse(path) })
    }

    @Test func missingRelativeDotDotAndNonImageFilesAreRefused() {
        let text = file("notes.png", Array("hello, not an image".utf8))
        for reference in [folder.path + "/missing.png", "icons/x.png", folder.path + "/../x.png", text, "has space"] {
            #expect(throws: HintProblemMatcher.self, performing: { try Self.refuse(reference) })
        }
    }

    struct HintProblemMatcher: Error {}

    static func refuse(_ reference: String) throws {
        if case .failure = ImageReference.check(reference) { throw HintProblemMatcher() }
    }
}
