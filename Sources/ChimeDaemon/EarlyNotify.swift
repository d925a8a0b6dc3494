import ChimeCore
import ChimeDBus

/// Notify's early part, on the bus thread: it reads the call into its one value
/// (`NotifyDecoder.read`), refuses a malformed one there, and asks who sent it while the sender
/// is sure to be on the bus. The main thread finishes the notification from that value and
/// answers once the center has it.
final class EarlyNotify: Sendable {
    /// What the bus thread made of a Notify.
    struct Passed: Sendable {
        /// The call as read here: the main thread finishes it (`NotifyDecoder.finish`).
        let read: NotifyDecoder.Read
        /// Its texts' key, made before the main thread takes markup out of the body.
        let texts: RepeatDetector.Key
        /// When it came (unix ms): what the notification keeps as its arrival, though the main
        /// thread may handle it a little later.
        let wall: Int64
        /// Who sent it, as the system says.
        let identity: SenderIdentity?
    }

    private let decoder = NotifyDecoder()
    private let identities: SenderIdentities

    init(identities: SenderIdentities) {
        self.identities = identities
    }

    func read(_ message: Message) -> EarlyReading {
        let wall = LocalClock.wallMilliseconds()
        let identity = identities.identity(of: message.sender)
        do throws(RequestError) {
            let read = try decoder.read(ArgumentReader(message))
            return .read(Passed(read: read, texts: RepeatDetector.Key(read.request), wall: wall, identity: identity))
        } catch {
            return .refused(BusError(error))
        }
    }
}
