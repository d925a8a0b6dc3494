import ChimeConfig
import ChimeCore
import ChimeGLib
import Glibc

/// Plays sounds through `chime-sound` (installed beside chimed): started for a sound, it leaves
/// once its sounds have played and none came for a second, and the sound server's libraries (libpulse and the
/// codecs it loads, which a process cannot unload) cost memory only while sounds play, not all
/// session long in chimed.
///
/// Never blocks: requests go down a non-blocking socket, the child's stdin. One that is leaving
/// has shut it, so a send fails and another child is started for the sound; so is one for a
/// child that crashed or stopped reading.
final class SoundChild {
    /// chimed's end of the current child's stdin; -1 when none runs for us.
    private var socket: Int32 = -1
    /// Counts the children started, so that one's exit can tell whether it is the current one.
    private var started = 0

    /// Plays `request`, starting a child if none takes it.
    func play(_ request: SoundRequest) {
        let record = request.record
        if socket >= 0, send(record) { return }
        letGo()
        guard start() else { return }
        if !send(record) {
            Log.warning("chime-sound does not take sounds; this one is not played")
            letGo()
        }
    }

    /// The whole record or nothing: a record cut short would garble the next.
    private func send(_ record: [UInt8]) -> Bool {
        let sent = record.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == record.count
    }

    private func start() -> Bool {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            Log.warningOnce(key: "sound-socket", "cannot make a socket for chime-sound: \(String(cString: strerror(errno))); no sounds")
            return false
        }
        defer { close(ends[1]) }
        started += 1
        let child = started
        switch ChildProcess.spawn([Self.executable], standardInput: ends[1], exited: { [weak self] status in
            self?.exited(status, child: child)
        }) {
        case .success:
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            socket = ends[0]
            return true
        case .failure(let failure):
            close(ends[0])
            Log.warningOnce(key: "sound-start", "cannot start chime-sound: \(failure.message); no sounds")
            return false
        }
    }

    private func exited(_ status: Int32, child: Int) {
        // Killed by a signal: the next sound starts another.
        if status & 0x7f != 0 { Log.warning("chime-sound crashed (signal \(status & 0x7f))") }
        if child == started { letGo() }
    }

    private func letGo() {
        guard socket >= 0 else { return }
        close(socket)
        socket = -1
    }

    /// `chime-sound` in the folder chimed runs from.
    private static var executable: String { (executableFolder() ?? ".") + "/chime-sound" }
}
