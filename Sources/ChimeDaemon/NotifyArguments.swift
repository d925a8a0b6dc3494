import ChimeCore
import ChimeDBus

/// Notify's arguments (susssasa{sv}i) where they lie in the message: the texts as bytes in
/// place, the actions counted, the hints found; `NotifyDecoder.read` makes the call's one
/// value from them (the texts made strings, the actions pairs, the hints typed) and nothing
/// reads the message again.
struct NotifyArguments {
    /// Keeps the message's bytes alive (every buffer below points into them), and is where the
    /// actions start.
    private let atActions: ArgumentReader
    let appName: UnsafeRawBufferPointer
    let replacesID: UInt32
    let appIcon: UnsafeRawBufferPointer
    let summary: UnsafeRawBufferPointer
    let body: UnsafeRawBufferPointer
    /// How many strings the actions' list holds (two an action); even, or the call is refused.
    let actionStrings: Int
    let hints: [HintName: BusValue]
    let timeout: Int32

    /// Refuses a call whose arguments are not Notify's, or whose actions are not pairs.
    init(_ call: ArgumentReader) throws(RequestError) {
        var reader = call
        guard let appName = reader.stringBytes(), let replacesID = reader.uint32(), let appIcon = reader.stringBytes(),
              let summary = reader.stringBytes(), let body = reader.stringBytes() else { throw Self.malformed }
        atActions = reader
        guard let actionStrings = reader.stringCount(), let hints = reader.hints(), let timeout = reader.int32() else {
            throw Self.malformed
        }
        guard actionStrings.isMultiple(of: 2) else { throw Action.unpaired(actionStrings) }
        (self.appName, self.replacesID, self.appIcon, self.summary, self.body) = (appName, replacesID, appIcon, summary, body)
        (self.actionStrings, self.hints, self.timeout) = (actionStrings, hints, timeout)
    }

    static let malformed = RequestError.invalidArgument("Notify takes (susssasa{sv}i)")

    /// The whole call as it came.
    var messageBytes: UnsafeRawBufferPointer { atActions.messageBytes }

    /// The actions as pairs, the first `limit` of them; the rest are only counted.
    func actions(upTo limit: Int) -> [Action] {
        var reader = atActions
        return reader.stringPairs(upTo: limit, Action.init)?.pairs ?? []
    }

    static func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }
}
