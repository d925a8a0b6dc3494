/// The open notifications and the rules of the freedesktop protocol: ids, replacement,
/// stack tags, ownership and expiry. Pure state; every call takes `now` and returns events.
public struct NotificationServer: Sendable {
    public var settings: ServerSettings
    private var open: [UInt32: Notification] = [:]
    /// Ids in the order they were first shown, so listings are stable, from `orderStart` on; ids
    /// of closed notifications are dropped lazily. Past the open limit every Notify retires the
    /// oldest, so the front moves by an offset: removing it from the array would shift every
    /// other id on every Notify.
    private var order: [UInt32] = []
    private var orderStart = 0
    private var expiries = ExpiryQueue()
    /// Where ids come from.
    public var ids: IDCounter
    /// The highest id handed out; internal so tests can put it near the wrap.
    var lastID: UInt32 {
        get { ids.current }
        set { ids.current = newValue }
    }
    /// Ids whose image-data is held, oldest first, and the bytes they hold: raw images are big
    /// (64x64 RGBA is 16 KB), so only the newest stay once they pass `imageBudget`.
    private var imageHolders: [UInt32] = []
    private(set) var imageBytes = 0
    /// Ids of snoozed notifications, so finding the next snooze end does not walk every one.
    private var snoozedIDs: Set<UInt32> = []
    /// Banners under the pointer: the time they had left, given back when the pointer leaves.
    private var paused: [UInt32: Duration] = [:]
    /// The user is away (the session idle or locked): no banner expires unseen (`setAway`).
    public private(set) var away = false
    public static let imageBudget = 8 * 1024 * 1024

    /// `lastID`: the highest id ever handed out, so ids continue past it.
    public init(settings: ServerSettings = .init(), lastID: UInt32 = 0) {
        self.settings = settings
        ids = IDCounter(after: lastID)
    }

    public var notifications: [Notification] { order[orderStart...].compactMap { open[$0] } }
    public var count: Int { open.count }
    public func notification(_ id: UInt32) -> Notification? { open[id] }

    /// The earliest moment `expire(now:)` may have work to do.
    public var nextDeadline: Instant? { expiries.earliest }
    /// Deadline entries held, stale ones included: bounded by the open count.
    var pendingDeadlines: Int { expiries.count }

    // MARK: Notify

    /// Shows a notification, replacing in place when `replaces_id` or a stack tag names
    /// an open notification of the same app. Returns its id and what changed.
    /// `decision` sets the state and whether it expires; without one it is presented.
    /// `repeating`: the open notification this one repeats. The new one is a notification of its
    /// own (its id, its expiry, its close), merged into that one only where the person sees it:
    /// it takes over its banner and its place in the center, its count raised ("×2"); the one
    /// it repeats stays open for its app, without a banner (`ServerEvent.merged`).
    /// `wall`: unix milliseconds now, what a new notification keeps as when it `arrived`.
    /// `identity`: who the sender is, as the system says (`SenderIdentity`).
    /// `replacing`: what it replaces, when the caller found it already (`replacementTarget`).
    /// `given`: the id its app already holds (a call chimed 0.1.0 answered), not the next one.
    public mutating func notify(_ request: NotificationRequest, from sender: String, identity: SenderIdentity? = nil,
                                now: Instant, wall: Int64 = 0, decision: DeliveryDecision? = nil,
                                replacing: Replacing = .lookUp, repeating: UInt32? = nil,
                                id given: UInt32? = nil) throws(RequestError) -> (id: UInt32, events: [ServerEvent]) {
        var target: Notification?
        switch replacing {
        case .lookUp: target = try replacementTarget(for: request, from: sender, identity: identity)
        case .found(let found): target = found
        }
        let repeated = target == nil ? repeating.flatMap { open[$0] } : nil
        let state = decision.map(NotificationState.init) ?? .presented
        let screen = ScreenChange(before: target?.state, after: state)
        // Shown or not, it ends for its app at its timeout (the center keeps it unread).
        let expires = state.endsAtTimeout ? expiry(of: request, decision: decision, now: now) : nil
        var notification: Notification
        var reserved: UInt32?
        if var replaced = target {
            replaced.request = request
            replaced.sender = sender
            replaced.senderIdentity = identity
            replaced.updated = now
            replaced.expires = expires
            notification = replaced
        } else {
            let id: UInt32
            (id, reserved) = nextID(given: given)
            notification = Notification(id: id, request: request, sender: sender,
                                        created: now, arrived: wall, updated: now, expires: expires)
            if let identity { notification.senderIdentity = identity }
            order.append(notification.id)
        }
        notification.state = state
        notification.decision = decision
        notification.repeatCount = target?.repeatCount ?? (repeated.map { $0.repeatCount + 1 } ?? 1)
        forgetSnoozed(notification.id)
        if let previous = target?.request.hints.imageData {
            imageBytes -= previous.pixels.count
            // Its place among the holders moves to the newest, with the new image: left where it
            // was, the budget would drop the newest image first.
            if let held = imageHolders.firstIndex(of: notification.id) { imageHolders.remove(at: held) }
        }
        if let image = request.hints.imageData {
            imageBytes += image.pixels.count
            imageHolders.append(notification.id)
        }
        var events: [ServerEvent] = switch screen {
        case .show, .update: [.presented(notification)]
        case .withdraw: [.withdrawn(notification)]
        case .none: [.stored(notification)]
        }
        if var earlier = repeated {
            // Its banner, if it has one, shows the repeat now, unless it is of a higher level; it
            // stays open, without one.
            if screen == .show, earlier.state == .presented, (earlier.decision?.level ?? .active) <= (decision?.level ?? .active) {
                earlier.state = .quiet
                events = [.updated(notification, replacing: earlier.id)]
            }
            open[earlier.id] = earlier
            events.append(.merged(earlier, into: notification.id))
        } else if screen == .show, let previous = decision?.takesOver, previous != notification.id,
           var earlier = open[previous], earlier.state == .presented {
            // Its thread's banner shows it now; the earlier one stays open, without a banner.
            earlier.state = .quiet
            open[previous] = earlier
            notification.threadCount = earlier.threadCount + 1
            events = [.updated(notification, replacing: previous), .stored(earlier)]
        }
        open[notification.id] = notification
        enforceImageBudget()
        if let expires { expiries.insert(notification.id, at: expires) }
        events += retireOverLimit()
        if let reserved { events.insert(.idsReserved(through: reserved), at: 0) }
        return (notification.id, events)
    }

    /// What a Notify replaces: looked up by `notify`, or found by the caller already, which asks
    /// before it decides (a stack tag is found by a scan of the open set, done once).
    public enum Replacing {
        case lookUp
        case found(Notification?)
    }

    /// The open notification this request replaces: its replaces_id, else a stack tag of the same
    /// app, one the caller may replace (`owns`). Throws when the caller may not replace it.
    public func replacementTarget(for request: NotificationRequest, from sender: String,
                                  identity: SenderIdentity?) throws(RequestError) -> Notification? {
        if request.replacesID != 0, let existing = open[request.replacesID] {
            guard owns(existing, caller: sender, identity: identity) else { throw .notOwner(request.replacesID) }
            return existing
        }
        if let tag = request.hints.stackTag, !tag.isEmpty {
            let app = request.appIdentity
            return open.values.first {
                $0.request.hints.stackTag == tag && $0.appIdentity == app && owns($0, caller: sender, identity: identity)
            }
        }
        return nil
    }

    /// Puts back a notification from the center under its own id: restored, snoozed again, or
    /// held across a restart. Its state says how; a presented one gets a fresh expiry.
    public mutating func adopt(_ adopted: Notification, now: Instant) -> [ServerEvent] {
        var notification = adopted
        if let existing = open[notification.id] { notification = existing }
        notification.state = adopted.state
        notification.updated = now
        notification.expires = notification.state.endsAtTimeout
            ? expiry(of: notification.request, decision: notification.decision, now: now) : nil
        if open[notification.id] == nil {
            // Brought back after it closed (restore): its id may still be in `order`, which drops
            // closed ids lazily, and is listed once, as the newest. Rare, so a scan.
            if let stale = order[orderStart...].firstIndex(of: notification.id) { order.remove(at: stale) }
            order.append(notification.id)
        }
        open[notification.id] = notification
        if let expires = notification.expires { expiries.insert(notification.id, at: expires) }
        if case .snoozed = notification.state { snoozedIDs.insert(notification.id) } else { forgetSnoozed(notification.id) }
        switch notification.state {
        case .presented: return [.presented(notification)] + retireOverLimit()
        case .snoozed: return [.snoozed(notification)]
        default: return [.stored(notification)] + retireOverLimit()
        }
    }

    /// Takes an open notification off the screen until `until` (unix milliseconds).
    public mutating func snooze(_ id: UInt32, until: Int64, now: Instant) throws(RequestError) -> [ServerEvent] {
        guard var notification = open[id] else { throw .unknownNotification(id) }
        notification.state = .snoozed(until: until)
        return adopt(notification, now: now)
    }

    /// The pointer is over the banner: its expiry waits.
    public mutating func pauseExpiry(_ id: UInt32, now: Instant) {
        guard let expires = open[id]?.expires else { return }
        paused[id] = .milliseconds(max(0, expires.milliseconds - now.milliseconds))
        open[id]?.expires = nil
    }

    /// The pointer left: the banner gets the time it had left, and at least a second more.
    public mutating func resumeExpiry(_ id: UInt32, now: Instant) {
        guard let remaining = paused.removeValue(forKey: id), open[id] != nil else { return }
        let expires = now + max(remaining, .seconds(1))
        open[id]?.expires = expires
        expiries.insert(id, at: expires)
    }

    /// While the user is away no banner expires; when they are back, each starts its timeout
    /// again, whole, so what came while they were gone is seen (as dunst's `idle_threshold` and
    /// GNOME Shell do). Banners under the pointer keep the time they had left.
    public mutating func setAway(_ away: Bool, now: Instant) {
        guard away != self.away else { return }
        self.away = away
        guard !away else { return }
        for id in open.compactMap({ $0.value.expires != nil ? $0.key : nil }) {
            guard let notification = open[id],
                  let expires = expiry(of: notification.request, decision: notification.decision, now: now) else { continue }
            open[id]?.expires = expires
            expiries.insert(id, at: expires)
        }
    }

    /// The snoozed notifications whose time has come, by unix milliseconds.
    public func snoozed(dueBy wall: Int64) -> [Notification] {
        snoozedIDs.sorted().compactMap { open[$0] }.filter { if case .snoozed(let until) = $0.state { until <= wall } else { false } }
    }

    /// The earliest snooze end, in unix milliseconds.
    /// Inlined for its usual answer: asked after every Notify from the daemon, where a call
    /// copied the whole server (a struct in a class's property) to ask it.
    @inline(__always)
    public var nextSnoozeEnd: Int64? { snoozedIDs.isEmpty ? nil : earliestSnoozeEnd() }

    private func earliestSnoozeEnd() -> Int64? {
        snoozedIDs.compactMap { if case .snoozed(let until)? = open[$0]?.state { until } else { nil } }.min()
    }

    /// An id for a notification that is closed at once (a denied app): valid, never reused.
    public mutating func discard(_ request: NotificationRequest, from sender: String, now: Instant,
                                 id given: UInt32? = nil) -> (id: UInt32, events: [ServerEvent]) {
        let (id, reserved) = nextID(given: given)
        let notification = Notification(id: id, request: request, sender: sender, created: now, updated: now, expires: nil)
        return (id, (reserved.map { [.idsReserved(through: $0)] } ?? []) + [.closed(notification, .dismissed)])
    }

    /// Lets go of held notifications, as when a summary delivers them or their Focus ends: each
    /// takes `state` and ends for its app at its timeout from now.
    public mutating func release(_ ids: [UInt32], as state: NotificationState, now: Instant) -> [ServerEvent] {
        ids.compactMap { open[$0] }.flatMap { held in
            var released = held
            released.state = state
            return adopt(released, now: now)
        }
    }

    /// The banners up whose text `redacts` now hides or shows otherwise than they do: each is
    /// shown again as it is to be seen (Presented, in place).
    public mutating func followPreviews(_ redacts: (Notification) -> Bool) -> [ServerEvent] {
        var events: [ServerEvent] = []
        for id in order[orderStart...] {
            guard var notification = open[id], notification.state == .presented, let redacted = notification.decision?.redacted else { continue }
            let now = redacts(notification)
            guard now != redacted else { continue }
            notification.decision?.redacted = now
            open[id] = notification
            events.append(.presented(notification))
        }
        return events
    }

    /// A notification whose offers (`DeliveryDecision.offers`) were taken: it stays as it was,
    /// and says so to the screen and the center.
    public mutating func withdrawOffers(of id: UInt32) -> [ServerEvent] {
        guard var notification = open[id], notification.decision?.offers.isEmpty == false else { return [] }
        notification.decision?.offers = []
        open[id] = notification
        return [notification.state == .presented ? .presented(notification) : .stored(notification)]
    }

    /// The open notifications a Focus of this name holds.
    public func held(by focus: String) -> [UInt32] {
        open.values.filter { $0.state == .heldByFocus(focus) }.map(\.id).sorted()
    }

    // MARK: Closing

    /// CloseNotification: only the connection that sent it, or another of the same identity.
    public mutating func close(_ id: UInt32, caller: String, identity: SenderIdentity? = nil) throws(RequestError) -> [ServerEvent] {
        guard let notification = open[id] else { throw .unknownNotification(id) }
        guard owns(notification, caller: caller, identity: identity) else { throw .notOwner(id) }
        return remove(id, reason: .closedByCall)
    }

    /// The user closed it.
    public mutating func dismiss(_ id: UInt32) throws(RequestError) -> [ServerEvent] {
        guard open[id] != nil else { throw .unknownNotification(id) }
        return remove(id, reason: .dismissed)
    }

    /// Closed because a newer one takes its place that the app did not ask to replace (the next
    /// track's "now playing"): reason 4. Nothing when it closed already.
    public mutating func supersede(_ id: UInt32) -> [ServerEvent] {
        open[id] == nil ? [] : remove(id, reason: .undefined)
    }

    /// A notification whose app never had its id: its Notify was refused after it was decided (the
    /// center could not keep it, a full disk). Its banner comes down; its app is not told.
    public mutating func withdraw(_ id: UInt32) -> [ServerEvent] {
        guard let notification = takeOut(id) else { return [] }
        dropClosedFromOrderIfSparse()
        return [.withdrawn(notification)]
    }

    /// With `app`, only that app's: named as Chime names it (`appIdentity`) or by the name it sends.
    public mutating func dismissAll(app: String? = nil) -> [ServerEvent] {
        notifications.filter { app == nil || $0.appIdentity == app || $0.request.appName == app }
            .flatMap { remove($0.id, reason: .dismissed) }
    }

    /// Closes every notification whose deadline has passed, with reason 1; banners not while the user is away.
    public mutating func expire(now: Instant) -> [ServerEvent] {
        var events: [ServerEvent] = []
        for due in expiries.popDue(at: now) {
            guard let notification = open[due.id], notification.expires == due.deadline else { continue }
            // A banner waits for the user to come back (`setAway` starts its timeout anew); one
            // never shown ends for its app while they are away too.
            if away, notification.state == .presented { continue }
            events += remove(due.id, reason: .expired)
        }
        if expiries.count > 2 * open.count + 64 {
            expiries.compact { id, deadline in open[id]?.expires == deadline }
        }
        return events
    }

    // MARK: User actions

    /// The user chose `key` ("" = the default action). Closes it afterwards unless resident.
    public mutating func invoke(_ id: UInt32, key: String) throws(RequestError) -> [ServerEvent] {
        guard let notification = open[id] else { throw .unknownNotification(id) }
        let actionKey = key.isEmpty ? Action.defaultKey : key
        guard notification.action(actionKey) != nil else { throw .unknownAction(id, key) }
        var events: [ServerEvent] = [.actionInvoked(notification, key: actionKey)]
        if !notification.request.hints.resident { events += remove(id, reason: .dismissed) }
        return events
    }

    /// The user replied inline; only notifications that offer `inline-reply` take a reply.
    public mutating func reply(_ id: UInt32, text: String) throws(RequestError) -> [ServerEvent] {
        guard let notification = open[id] else { throw .unknownNotification(id) }
        guard notification.action(Action.inlineReplyKey) != nil else {
            throw .invalidArgument("notification \(id) does not offer an inline reply")
        }
        var events: [ServerEvent] = [.replied(notification, text: text)]
        if !notification.request.hints.resident { events += remove(id, reason: .dismissed) }
        return events
    }

    // MARK: Internals

    /// Whether `caller` may close or replace it (design section 14: the boundary is the sandbox):
    /// the connection that sent it, another the system says is the same app (`notify-send -r`
    /// from a new process, a second instance), or, when neither is in a sandbox, any program of
    /// the user's (a script's gdbus closing what its notify-send sent, as dunst and mako allow).
    /// Never a claim alone; a caller the system could not name reaches only its own.
    private func owns(_ notification: Notification, caller: String, identity: SenderIdentity?) -> Bool {
        if notification.sender == caller { return true }
        guard let identity, let theirs = notification.senderIdentity else { return false }
        return identity == theirs || (!identity.isSandboxed && !theirs.isSandboxed)
    }

    /// When it expires, as its decision says (without one, as the request asks).
    private func expiry(of request: NotificationRequest, decision: DeliveryDecision?, now: Instant) -> Instant? {
        switch decision?.lifetime ?? DeliveryDecision.lifetime(of: request, level: .active, timeout: nil) {
        case .untilClosed: nil
        case .after(let duration): now + duration
        case .serverDefault: now + settings.defaultTimeout
        }
    }

    /// The next id: never 0, never one an open notification has, even after the counter wraps.
    /// Or `given`: one its app already holds (a call chimed 0.1.0 answered).
    private mutating func nextID(given: UInt32? = nil) -> (id: UInt32, reserved: UInt32?) {
        if let given {
            ids.current = max(ids.current, given)
            return (given, nil)
        }
        return ids.next { open[$0] != nil }
    }

    /// Past `maximumOpen`, the oldest notifications that would expire anyway, or sit in the center
    /// without a banner, are retired: closed at once, so that a flood never grows the open set;
    /// the center keeps them. Held notifications go only when nothing else can (a flood while a
    /// Focus holds everything); banners that never expire and snoozed ones stay.
    private mutating func retireOverLimit() -> [ServerEvent] {
        guard open.count > settings.maximumOpen else { return [] }
        var events: [ServerEvent] = []
        var kept: [UInt32] = []
        var index = orderStart
        while open.count > settings.maximumOpen, index < order.count {
            let id = order[index]
            index += 1
            // Found once, and taken out where it was found.
            guard let position = open.index(forKey: id) else { continue }
            let candidate = open.values[position]
            if candidate.expires != nil || candidate.state == .quiet || candidate.state == .summarized {
                events.append(.retired(takeOut(at: position)))
            } else {
                kept.append(id)
            }
        }
        if open.count > settings.maximumOpen {
            kept.removeAll { id in
                guard open.count > settings.maximumOpen, let position = open.index(forKey: id) else { return false }
                switch open.values[position].state {
                case .heldByFocus, .heldForSummary:
                    events.append(.retired(takeOut(at: position)))
                    return true
                default:
                    return false
                }
            }
        }
        // The scanned ids that stay (they never expire) move up to just before the rest, in their
        // order, so the next scan does not walk the closed ones again.
        orderStart = index - kept.count
        for (offset, id) in kept.enumerated() { order[orderStart + offset] = id }
        dropClosedFromOrderIfSparse()
        return events
    }

    /// Compacts `order` once most of it is closed ids (or the dead front): amortized, each id is
    /// moved a bounded number of times.
    private mutating func dropClosedFromOrderIfSparse() {
        guard order.count > 2 * open.count + 64 else { return }
        order = order[orderStart...].filter { open[$0] != nil }
        orderStart = 0
    }

    /// Drops the pixels of the oldest images until the newest fit the budget; the notification
    /// itself stays, shown with its app icon instead.
    private mutating func enforceImageBudget() {
        var dropped = 0
        while imageBytes > Self.imageBudget, dropped < imageHolders.count {
            let id = imageHolders[dropped]
            dropped += 1
            guard let image = open[id]?.request.hints.imageData else { continue }
            open[id]?.request.hints.imageData = nil
            imageBytes -= image.pixels.count
        }
        if dropped > 0 { imageHolders.removeFirst(dropped) }
        if imageHolders.count > 4 * (open.count + 16) { imageHolders.removeAll { open[$0]?.request.hints.imageData == nil } }
    }

    private mutating func remove(_ id: UInt32, reason: CloseReason) -> [ServerEvent] {
        guard let notification = takeOut(id) else { return [] }
        dropClosedFromOrderIfSparse()
        return [.closed(notification, reason)]
    }

    /// Takes a notification out of the open set and everything that tracks it.
    private mutating func takeOut(_ id: UInt32) -> Notification? {
        open.index(forKey: id).map { takeOut(at: $0) }
    }

    private mutating func takeOut(at position: Dictionary<UInt32, Notification>.Index) -> Notification {
        let notification = open.remove(at: position).value
        forgetSnoozed(notification.id)
        if !paused.isEmpty { paused[notification.id] = nil }
        if let image = notification.request.hints.imageData { imageBytes -= image.pixels.count }
        return notification
    }

    /// Most of the time nothing is snoozed: removing from an empty set still hashes the id.
    private mutating func forgetSnoozed(_ id: UInt32) {
        if !snoozedIDs.isEmpty { snoozedIDs.remove(id) }
    }
}
