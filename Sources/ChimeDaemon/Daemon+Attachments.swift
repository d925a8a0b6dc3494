import ChimeCore
import ChimeDBus
import ChimeGLib
import Glibc

/// The files notifications carry (`x-chime-attachments`, `x-kde-urls`): checked and copied into
/// the attachment store as a Notify comes, and deleted once no notification in the center or on
/// the screen names them (a sweep, soon after anything may have let go of one, and at start).
extension Daemon {
    /// Replaces the files the request names by Chime's copies; throws when one of Chime's own
    /// hint cannot be kept, so the notification is refused (InvalidArgs) as Apple refuses it.
    /// `system`: who sent it, as the system says: a sandboxed app's files go in its sandbox's
    /// folder, whatever it claims.
    func keepAttachments(of request: inout NotificationRequest, system: SenderIdentity?, wall: Int64) throws(RequestError) {
        guard !request.hints.attachmentRequests.isEmpty else { return }
        if let system, system.isSandboxed { request.name(by: system) }
        let app = request.appIdentity
        var problems: [String] = []
        let quota = attention.apps.settings(for: app, config: attention.settings).attachmentBytes
        request.hints.attachments = try attachments.keep(request.hints.attachmentRequests, app: app, sandboxed: request.sandboxed,
                                                         quota: quota, wall: wall, problems: &problems)
        request.hints.attachmentRequests = []
        for problem in problems { Log.warning("\(app): \(problem)") }
        // The model may still drop it (a denied app, a rate limit): what no one names goes.
        sweepAttachmentsSoon()
    }

    /// The person pressed an audio attachment's play button: it plays as asked, muted or not,
    /// at the configured volume.
    func playAttachment(of notification: Notification, index: Int) throws(BusError) {
        let attachments = notification.request.hints.attachments
        guard attachments.indices.contains(index) else {
            throw .invalidArgs("notification \(notification.id) has \(attachments.count) attachment(s); there is none at index \(index)")
        }
        let attachment = attachments[index]
        guard attachment.kind == .audio else {
            throw .invalidArgs("attachment \(index) of notification \(notification.id) is \(attachment.kind.named), not an audio file")
        }
        guard access(attachment.path, R_OK) == 0 else {
            throw BusError(BusError.failed, "\(attachment.name) was deleted: its app's attachments were over their quota")
        }
        let plays = DescriptorBytes.reading(attachment.path) { bytes in
            CanberraFormat.plays(type: attachment.type, isA: { ContentTypes.type(attachment.type, isA: $0) }, bytes: bytes)
        } ?? false
        guard plays else {
            throw .invalidArgs("\(attachment.name) (\(attachment.type)) is audio Chime does not play itself (it plays Ogg Vorbis and 8 or 16-bit WAV); "
                               + "open it with the desktop's player: \(attachment.path)")
        }
        let sounds = attention.settings.sounds
        effects.play(.init(choice: SoundChoice(file: attachment.path, level: .active), theme: sounds.theme, volume: sounds.volume,
                           application: notification.request.appName))
    }

    /// After an event that may let go of a notification's files: a sweep soon, while any file is
    /// stored. A close lets go only of a notification's own files (when the center never kept it);
    /// an update in place, of what the notification it replaced carried; a delete, of what the
    /// center held.
    func mayReleaseAttachments(_ event: ServerEvent) {
        guard attachments.mayHaveFiles else { return }
        switch event {
        case .closed(let notification, _) where !notification.request.hints.attachments.isEmpty: sweepAttachmentsSoon()
        case .updated, .deleted: sweepAttachmentsSoon()
        default: break
        }
    }

    /// Sweeps once the main loop is idle, once however many ask meanwhile.
    func sweepAttachmentsSoon() {
        guard !attachmentSweepScheduled else { return }
        attachmentSweepScheduled = true
        GLibSources.idle(priority: GLibSources.lowPriority) { [unowned self] in
            attachmentSweepScheduled = false
            sweepAttachments()
            return false
        }
    }

    /// Deletes the stored files that neither the center nor an open notification names.
    func sweepAttachments() {
        guard attachments.mayHaveFiles else { return }
        var kept = Set(store?.attachmentPaths() ?? [])
        for notification in attention.server.notifications {
            for attachment in notification.request.hints.attachments { kept.insert(attachment.path) }
        }
        let removed = attachments.sweep(keeping: kept)
        if removed > 0 { Log.debug("deleted \(removed) attachment file(s) no notification names") }
    }
}
