import ChimeCore
import ChimeDBus

/// What the bus thread needs of a Notify call before it may answer it, read from the call's
/// bytes without decoding it (`NotifyDecoder` does that on the main thread, off the app's
/// round trip): whether it may replace a notification, and the key of its texts.
struct NotifyFirstLook {
    /// replaces_id, or a stack tag hint: the main thread finds what it replaces.
    let replaces: Bool
    /// It names files of Chime's attachment hint: one that cannot be kept refuses the call, so
    /// only the main thread, which checks them, may answer it.
    let checksFiles: Bool
    /// The key of its texts, as the main thread's repeat detector will use it.
    let texts: RepeatDetector.Key
    /// The call, to be read again from its start: by the decoder on the main thread, and as
    /// bytes for the call journal.
    let call: ArgumentReader

    private static let stackTags = NotificationHints.stackTagNames.reduce(UInt64(0)) { $0 | 1 << $1.rawValue }

    /// Refuses what `NotifyDecoder.decode` refuses, with the same errors.
    init(_ message: Message) throws(RequestError) {
        call = ArgumentReader(message)
        var reader = call
        guard let appName = reader.stringBytes(), let replacesID = reader.uint32(), reader.stringBytes() != nil,
              let summary = reader.stringBytes(), let body = reader.stringBytes(), let actions = reader.stringCount(),
              let hints = reader.hints(), reader.int32() != nil
        else { throw .invalidArgument("Notify takes (susssasa{sv}i)") }
        guard actions.isMultiple(of: 2) else { throw Action.unpaired(actions) }
        replaces = replacesID != 0 || hints.present & Self.stackTags != 0
        checksFiles = hints.present & 1 << HintName.attachments.rawValue != 0
        // The app is named by its desktop entry when it sends one, as `appIdentity` does.
        if hints.present & 1 << HintName.desktopEntry.rawValue != 0, case .string(let entry) = hints.value(.desktopEntry),
           !entry.isEmpty {
            var entry = entry
            texts = entry.withUTF8 { RepeatDetector.Key(identity: UnsafeRawBufferPointer($0), summary: summary, body: body) }
        } else {
            texts = RepeatDetector.Key(identity: appName, summary: summary, body: body)
        }
        // `summary` and `body` point into the reader's copy of the message.
        withExtendedLifetime(reader) {}
    }
}
