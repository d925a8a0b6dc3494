import ChimeCore
import ChimeDBus

/// What the bus thread needs of a Notify call before it may answer it, from its arguments read
/// in place (`NotifyArguments`), without decoding them (`NotifyDecoder` does that on the main
/// thread, off the app's round trip, from the same reading): whether it may replace a
/// notification, whether it names files, and the key of its texts.
struct NotifyFirstLook {
    /// replaces_id, or a stack tag hint: the main thread finds what it replaces.
    let replaces: Bool
    /// It names files of Chime's attachment hint: one that cannot be kept refuses the call, so
    /// only the main thread, which checks them, may answer it.
    let checksFiles: Bool
    /// The key of its texts, as the main thread's repeat detector will use it.
    let texts: RepeatDetector.Key
    /// The arguments as read here: the decoder reads on from them on the main thread, and the
    /// call journal keeps their message's bytes.
    let call: NotifyArguments

    private static let stackTags = NotificationHints.stackTagNames.reduce(UInt64(0)) { $0 | 1 << $1.rawValue }

    /// Refuses what `NotifyDecoder.decode` refuses, with the same errors (`NotifyArguments`).
    init(_ message: Message) throws(RequestError) {
        let call = try NotifyArguments(ArgumentReader(message))
        self.call = call
        let hints = call.hints
        replaces = call.replacesID != 0 || hints.present & Self.stackTags != 0
        checksFiles = hints.present & 1 << HintName.attachments.rawValue != 0
        // The app is named by its desktop entry when it sends one, as `appIdentity` does.
        if hints.present & 1 << HintName.desktopEntry.rawValue != 0, case .string(let entry) = hints.value(.desktopEntry),
           !entry.isEmpty {
            var entry = entry
            texts = entry.withUTF8 { RepeatDetector.Key(identity: UnsafeRawBufferPointer($0), summary: call.summary, body: call.body) }
        } else {
            texts = RepeatDetector.Key(identity: call.appName, summary: call.summary, body: call.body)
        }
    }
}
