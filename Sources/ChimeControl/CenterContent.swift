import ChimeCore

/// The notification center as the panel lays it out, from the control interface's `History`
/// records (newest first): what a Focus holds and what waits for the summary in sections of
/// their own, the rest grouped by app (the app heard from last first), each group's threads
/// together, newest first.
public struct CenterContent: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public var id: UInt32
        public var app: String
        public var appName: String
        public var summary: String
        public var body: String
        /// Unix milliseconds.
        public var created: Int64
        public var category: String?
        public var unread: Bool
        public var state: String
        public var thread: String
        /// Buttons: every action but the default one and the inline reply.
        public var buttons: [Action]
        public var hasDefaultAction: Bool
        public var offersReply: Bool
        public var repeatCount: Int
        public var icon: String?
        public var desktopEntry: String?
        public var level: InterruptionLevel

        public init(record: [String: BusValue]) {
            id = record["id"]?.uint32 ?? 0
            app = record["app-identity"]?.string ?? ""
            appName = record["display-app-name"]?.string ?? record["app-name"]?.string ?? ""
            summary = record["summary"]?.string ?? ""
            body = record["body"]?.string ?? ""
            created = record["created"]?.integer ?? 0
            category = record["category"]?.string
            unread = record["unread"]?.bool ?? false
            state = record["state"]?.string ?? ""
            thread = record["thread"]?.string ?? ""
            let actions = Action.pairs(record["actions"]?.strings ?? [])
            buttons = actions.filter { $0.key != Action.defaultKey && $0.key != Action.inlineReplyKey }
            hasDefaultAction = actions.contains { $0.key == Action.defaultKey }
            offersReply = actions.contains { $0.key == Action.inlineReplyKey }
            repeatCount = Int(record["repeat-count"]?.integer ?? 1)
            icon = record["app-icon"]?.string
            desktopEntry = record["desktop-entry"]?.string
            level = record["level"]?.string.flatMap(InterruptionLevel.init(rawValue:)) ?? .active
            heldBy = record["held-by"]?.string
            image = record["avatar-path"]?.string ?? record["image-path"]?.string
            attachments = record["attachments"].map(Attachment.attachments(fromRecords:)) ?? []
            offers = BannerContent.offers(record["offers"])
            reasons = record["reasons"]?.strings ?? []
            shownReason = record["shown-reason"]?.string
        }

        /// Why the decision came out as it did (`chimectl why`).
        public var reasons: [String]

        /// The reason to show on it: what held it or kept it quiet (`Reason.explainsQuiet`).
        public var shownReason: String?

        /// What Chime offers about its app (`Offer`), while it is open.
        public var offers: [Offer]

        /// The files it carries, in Chime's store.
        public var attachments: [Attachment]

        /// Its picture (for a message, the sender's avatar): a local file chimed checked.
        public var image: String?

        /// The Focus holding it, when one does.
        public var heldBy: String?
    }

    public struct Group: Equatable, Sendable {
        public var app: String
        public var name: String
        public var items: [Item]
        public var unread: Int { items.filter(\.unread).count }
    }

    /// What one Focus holds.
    public struct Held: Equatable, Sendable {
        public var focus: String
        public var items: [Item]
    }

    /// Held by each Focus, in the order they came.
    public var held: [Held]
    /// Waiting for the next scheduled summary.
    public var waiting: [Item]
    /// The last scheduled summary (Chime's notification that delivered it): the panel's card.
    public var summaryCard: Item?
    public var groups: [Group]

    public init(records: [[String: BusValue]]) {
        var items = records.map(Item.init(record:))
        if let card = items.firstIndex(where: { $0.category == ScheduledSummary.category }) {
            summaryCard = items.remove(at: card)
        }
        var held: [Held] = []
        waiting = []
        var byApp: [String: Int] = [:]
        var groups: [Group] = []
        for item in items {
            switch item.state {
            case "held-by-focus":
                let focus = item.heldBy ?? ""
                if let index = held.firstIndex(where: { $0.focus == focus }) { held[index].items.append(item) } else { held.append(Held(focus: focus, items: [item])) }
            case "held-for-summary":
                waiting.append(item)
            default:
                if let index = byApp[item.app] {
                    groups[index].items.append(item)
                } else {
                    byApp[item.app] = groups.count
                    groups.append(Group(app: item.app, name: item.appName.isEmpty ? item.app : item.appName, items: [item]))
                }
            }
        }
        // A thread's notifications together, the thread heard from last first: a stable sort by
        // where each thread first appears (its newest) keeps each one's newest-first order.
        for index in groups.indices {
            var firstSeen: [String: Int] = [:]
            for (position, item) in groups[index].items.enumerated() where firstSeen[item.thread] == nil {
                firstSeen[item.thread] = position
            }
            groups[index].items = groups[index].items.enumerated()
                .sorted { (firstSeen[$0.element.thread]!, $0.offset) < (firstSeen[$1.element.thread]!, $1.offset) }
                .map(\.element)
        }
        self.held = held
        self.groups = groups
    }
}
