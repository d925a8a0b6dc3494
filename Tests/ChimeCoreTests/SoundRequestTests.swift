import Testing
@testable import ChimeCore

/// The records chimed sends chime-sound: whole requests from any cut of the stream.
@Suite struct SoundRequestTests {
    let withFile = SoundRequest(choice: SoundChoice(file: "/home/a/ding tab\there.oga", event: "message-new-email",
                                                    fallback: "message-new-instant", level: .timeSensitive),
                                theme: "chime", volume: -6.5, application: "Thunderbird")
    let plain = SoundRequest(choice: SoundChoice(event: "chime-critical", level: .critical), theme: "freedesktop", volume: 0,
                             application: "Ünïcode app")

    @Test func recordsRoundTripInAnyPieces() {
        let stream = withFile.record + plain.record
        for cut in [1, 2, 7, stream.count] {
            var reader = SoundRequest.Reader()
            var read: [SoundRequest] = []
            var start = 0
            while start < stream.count {
                read += reader.read(stream[start..<min(start + cut, stream.count)])
                start += cut
            }
            #expect(read == [withFile, plain], "in pieces of \(cut)")
        }
    }

    @Test func aBadRecordIsSkippedAndTheNextRead() {
        var bad = plain.record
        // The level field: "critical" becomes "loud".
        let fields = bad.split(separator: 0, omittingEmptySubsequences: false)
        bad = Array(fields[0..<3].joined(separator: [0])) + [0] + Array("loud".utf8) + [0] + Array(fields[4..<7].joined(separator: [0])) + [0]
        var reader = SoundRequest.Reader()
        #expect(reader.read(bad + withFile.record) == [withFile])
    }

    @Test func aNulInAFieldCannotShiftTheRecord() {
        var odd = plain
        odd.application = "evil\u{0}app"
        var reader = SoundRequest.Reader()
        let read = reader.read(odd.record + withFile.record)
        #expect(read.count == 2 && read[0].application == "evilapp" && read[1] == withFile)
    }
}
