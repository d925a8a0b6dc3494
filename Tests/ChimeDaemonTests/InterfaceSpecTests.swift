import Testing
@testable import ChimeDBus

@Suite struct InterfaceSpecTests {
    @Test func theFreedesktopInterfaceIsReadFromDbusFolder() throws {
        let specs = InterfaceSpec.load("org.freedesktop.Notifications.xml")
        #expect(specs.map(\.name) == ["org.freedesktop.Notifications"])
        let spec = try #require(specs.first)
        #expect(spec.methods["Notify"]?.inSignature == "susssasa{sv}i")
        #expect(spec.methods["Notify"]?.outSignature == "u")
        #expect(spec.methods["GetServerInformation"]?.outSignature == "ssss")
        #expect(Set(spec.signals.keys) == ["NotificationClosed", "ActionInvoked", "ActivationToken", "NotificationReplied"])
        #expect(spec.xml.hasPrefix("  <interface name=\"org.freedesktop.Notifications\">"))
        #expect(spec.xml.contains("</interface>"))
    }

    @Test func theControlInterfaceIsReadFromDbusFolder() throws {
        let spec = try #require(InterfaceSpec.load("dev.chime.Chime1.xml").first)
        #expect(spec.name == "dev.chime.Chime1")
        #expect(spec.methods["Invoke"]?.inSignature == "us")
        #expect(spec.signals["Presented"]?.inSignature == "ua{sv}")
    }

    @Test func malformedXmlIsAnError() {
        guard case .failure = InterfaceSpec.parse("<node><interface name='x'>") else {
            Issue.record("expected a parse error")
            return
        }
    }
}
