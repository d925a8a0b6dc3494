import ChimeCore
import ChimeGLib
import ChimeSound
import Glibc

// chime-sound: plays the sounds chimed asks for (SoundRequest records on stdin, a socket) through
// libcanberra, and leaves once what it was sent has played and no request came for a second: the
// sound server's libraries (libpulse, once loaded, stays in a process until it ends) leave memory
// with it.
//
// Leaving cannot lose a sound: it first shuts the socket for reading, so chimed's next send fails
// and chimed starts another chime-sound for it, then plays what was sent before that.
if CommandLine.arguments.count > 1 {
    print("usage: chime-sound (started by chimed, with sound requests on stdin)")
    exit(2)
}
let player = SoundPlayer { Log.debug($0) }
var reader = SoundRequest.Reader()
var chunk = [UInt8](repeating: 0, count: 16_384)

/// Plays what stdin holds now; false at its end.
@MainActor func take() -> Bool {
    while true {
        let count = read(0, &chunk, chunk.count)
        if count > 0 {
            reader.read(chunk[..<count]).forEach(player.play)
            return true
        }
        if count < 0, errno == EINTR { continue }
        return false
    }
}

var input = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
while true {
    let ready = poll(&input, 1, 1_000)
    if ready > 0 {
        guard take() else { break }
    } else if ready == 0 {
        // A second without a request: once all has played, leave.
        player.finish(within: 600)
        shutdown(0, Int32(SHUT_RD))
        while take() {}
        break
    } else if errno != EINTR {
        break
    }
}
// An audio attachment may play for minutes; a sound server that hangs must not keep this forever.
player.finish(within: 600)
Log.flush()
exit(0)
