import ChimeControl
import ChimeCore
import ChimeDBus
import ChimeGLib
import ChimeStore

/// What chimed keeps: the center on disk (`CenterDisk`), Chime's copies of the files
/// notifications carry (`AttachmentFolder`) and the day's figures (`ActivityTally`), and when it
/// tidies them: housekeeping a few seconds after a change (the figures to the store, the
/// write-ahead log into the database, retention), retention in short batches, and a sweep of the
/// files nothing names once the loop is idle.
final class Center {
    static let housekeepingDelay: UInt32 = 5_000

    /// The center on disk; nil when it cannot be opened (chimed then runs without history).
    /// Opened once chimed owns its names, so a second chimed hears about the name first.
    private(set) var disk: CenterDisk?
    var store: NotificationStore? { disk?.store }
    let attachments: AttachmentFolder
    /// What reached the person since the store last took the figures (`keepActivity`).
    var activity = ActivityTally()

    /// Whether a bus turn is under way: its end commits (`commitTurn`), not each write.
    private let inTurn: () -> Bool
    /// The retention limits in force.
    private let limits: () -> CenterSettings
    /// The files the open notifications name: a sweep keeps them.
    private let openAttachmentPaths: () -> [String]
    /// Retention deleted these: they are no longer unread.
    private let pruned: ([UInt32]) -> Void
    private var housekeepingArmed = false
    /// The sweep of the attachments nothing names, once the loop is idle.
    private lazy var sweep = IdleWork { [unowned self] in sweepAttachments() }

    init(stateFolder: String, inTurn: @escaping () -> Bool, limits: @escaping () -> CenterSettings,
         openAttachmentPaths: @escaping () -> [String], pruned: @escaping ([UInt32]) -> Void) {
        attachments = AttachmentFolder(stateFolder: stateFolder)
        self.inTurn = inTurn
        self.limits = limits
        self.openAttachmentPaths = openAttachmentPaths
        self.pruned = pruned
    }

    /// Opens the center on disk in `folder`; throws when it cannot be opened, or another chimed
    /// holds it.
    func open(folder: String) throws(StoreError) {
        let disk = try CenterDisk(folder: folder) { key, message in
            Log.warningOnce(key: "store-" + key, message)
        }
        disk.store.keptChanged = { problem in
            guard problem == nil else { return }  // the failure itself was said as it happened
            Log.info("history is kept again: the center has every notification chimed answered")
            Log.forgetSaid(prefix: "store-")
        }
        self.disk = disk
    }

    /// Keeps the center on disk in step with `event`, in the open transaction.
    func record(_ event: ServerEvent, wall: Int64) {
        mayReleaseAttachments(event)
        disk?.record(event, wall: wall)
    }

    /// `call` is to be answered with `id` once the turn's commit keeps it.
    func promise(_ call: Message, id: UInt32) {
        disk?.promise(call, id: id)
    }

    /// At a turn's end, before its replies: commits what it changed. The promises it could not
    /// keep (a full disk), and why; none when it kept them.
    func commitTurn() -> (broken: [(call: Message, id: UInt32)], why: String) {
        disk?.commitTurn() ?? ([], "")
    }

    /// After a turn's replies: a flood prunes as it goes, and housekeeping follows.
    func turnEnded() {
        if let rows = disk?.rowsSincePrune, rows >= CenterDisk.pruneEveryRows { prune(batch: rows) }
        housekeepIfDue()
    }

    /// The store writes `writes` makes, in one transaction. During a bus turn it commits at the
    /// turn's end (`commitTurn`); from a timer or an idle callback, now.
    func inOneTransaction(_ writes: () -> Void) {
        store?.holdCommits()
        writes()
        if !inTurn() {
            store?.commit()
            housekeepIfDue()  // a turn's end does it for the turn
        }
    }

    /// Retention: deletes old entries in short batches, each in its own main-loop turn, so
    /// pruning thousands never holds the bus for long. At start, on reload, in housekeeping, and
    /// after each thousand rows a flood brings (`batch` as many as it brought): waiting for
    /// housekeeping, the table grew by seconds of a flood, and the file kept that size.
    func prune(batch: Int = 500) {
        guard let disk else { return }
        let deleted = disk.prune(limits(), wall: LocalClock.wallMilliseconds(), batch: batch)
        if !deleted.isEmpty {
            pruned(deleted)
            if attachments.mayHaveFiles { sweep.schedule() }
        }
        if deleted.count == batch {
            GLibSources.idle(priority: GLibSources.lowPriority) { [unowned self] in
                prune()
                return false
            }
        }
        housekeepIfDue()  // to checkpoint what it deleted
    }

    /// Hands what was counted to the store: in housekeeping, before it is read, and at exit.
    /// A crash loses at most those few seconds of figures, never a notification.
    func keepActivity() {
        guard let store, !activity.isEmpty else { return }
        let taken = activity.take()
        inOneTransaction { store.addActivity(taken.counts, names: taken.names, keepingDays: ControlProtocol.activityDays) }
    }

    /// Housekeeping in a few seconds if it has work: after each bus turn and each write to the
    /// store outside one. A turn that changed nothing (a GetStatus, a client leaving) arms nothing.
    func housekeepIfDue() {
        guard let disk else { return }  // without history there is nothing to keep
        if disk.store.needsCheckpoint || !activity.isEmpty || disk.rowsSincePrune > 0 { housekeepSoon() }
    }

    /// Housekeeping in a few seconds, unless it is armed; hourly whatever happened (retention by
    /// age). A pass that leaves work (a failed checkpoint, a prune's next batch) arms the next.
    func housekeepSoon() {
        guard !housekeepingArmed else { return }
        housekeepingArmed = true
        GLibSources.timeout(milliseconds: Self.housekeepingDelay) { [unowned self] in
            keepActivity()
            prune()
            store?.checkpoint()
            housekeepingArmed = false  // not before: its own writes arm no second pass
            housekeepIfDue()
            return false
        }
    }

    /// Replaces the files the request names by Chime's copies; throws when one of Chime's own
    /// hint cannot be kept, so the notification is refused (InvalidArgs) as Apple refuses it.
    /// `system`: who sent it, as the system says: a sandboxed app's files go in its sandbox's
    /// folder, whatever it claims.
    /// `quota`: an app's attachment quota in bytes.
    func keepAttachments(of request: inout NotificationRequest, system: SenderIdentity?, wall: Int64,
                         quota: (String) -> Int64) throws(RequestError) {
        guard !request.hints.attachmentRequests.isEmpty else { return }
        if let system, system.isSandboxed { request.name(by: system) }
        let app = request.appIdentity
        var problems: [String] = []
        request.hints.attachments = try attachments.keep(request.hints.attachmentRequests, app: app, sandboxed: request.sandboxed,
                                                         quota: quota(app), wall: wall, problems: &problems)
        request.hints.attachmentRequests = []
        for problem in problems { Log.warning("\(app): \(problem)") }
        // The model may still drop it (a denied app, a rate limit): what no one names goes.
        sweep.schedule()
    }

    /// After an event that may let go of a notification's files: a sweep soon, while any file is
    /// stored. A close lets go only of a notification's own files (when the center never kept it);
    /// an update in place, of what the notification it replaced carried; a delete, of what the
    /// center held.
    private func mayReleaseAttachments(_ event: ServerEvent) {
        guard attachments.mayHaveFiles else { return }
        switch event {
        case .closed(let notification, _) where !notification.request.hints.attachments.isEmpty: sweep.schedule()
        case .updated, .deleted: sweep.schedule()
        default: break
        }
    }

    /// Deletes the stored files that neither the center nor an open notification names: soon
    /// after anything may have let go of one, and at start (what a killed chimed copied for
    /// notifications it never kept).
    func sweepAttachments() {
        guard attachments.mayHaveFiles else { return }
        let kept = Set(store?.attachmentPaths() ?? []).union(openAttachmentPaths())
        let removed = attachments.sweep(keeping: kept)
        if removed > 0 { Log.debug("deleted \(removed) attachment file(s) no notification names") }
    }

    /// At a clean exit: the figures kept, and the next chimed goes on from the last id given.
    func close(lastID: UInt32) {
        keepActivity()
        disk?.close(lastID: lastID)
    }
}
