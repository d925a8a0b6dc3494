import Testing
import ChimeControl

/// What chime-banners hands chime-presenter on its command line for a reply field or a menu.
@Suite struct InteractionTests {
    @Test func whatIsWrittenIsRead() {
        let asked = Interaction(kind: .reply, id: 7, x: 900, y: 98, width: 354, height: 30, area: (0, 24, 1280, 776))
        #expect(asked.arguments == ["--reply", "7", "--at", "900,98,354,30", "--area", "0,24,1280,776"])
        #expect(Interaction(arguments: asked.arguments) == asked)
        let menu = Interaction(kind: .more, id: 1, x: -5, y: 3, width: 1, height: 1, area: (0, 0, 1920, 1080))
        #expect(Interaction(arguments: menu.arguments)?.x == -5)
    }

    @Test func otherArgumentsAreRefused() {
        #expect(Interaction(arguments: ["--reply", "7", "--at", "1,2,3", "--area", "0,0,1,1"]) == nil)
        #expect(Interaction(arguments: ["--open", "7", "--at", "1,2,3,4", "--area", "0,0,1,1"]) == nil)
        #expect(Interaction(arguments: ["--menu", "x", "--at", "1,2,3,4", "--area", "0,0,1,1"]) == nil)
        #expect(Interaction(arguments: ["--menu", "7", "--area", "1,2,3,4", "--at", "0,0,1,1"]) == nil)
        #expect(Interaction(arguments: ["--menu", "7"]) == nil)
    }
}
