import ChimeCore
import ChimeDBus

/// One page of a listing (List, History, SummaryList): records until the page holds `limit` or
/// `budgetBytes` of them, whichever comes first, and the token that asks for the next page.
/// A page holds at least one record, and one record is bounded (`NotifyLimits`; images by the
/// server's image budget), so no reply comes near D-Bus's limits whatever the center holds.
struct RecordPage {
    static let budgetBytes = 8 * 1024 * 1024
    private(set) var records: [BusValue] = []
    private var bytes = 0
    private let limit: Int
    private let budget: Int
    /// What the caller passes as `after` for the next page: the id of the last record given,
    /// while more follow; empty on the last page.
    private(set) var next = ""

    init(limit: Int = .max, budget: Int = Self.budgetBytes) {
        (self.limit, self.budget) = (limit, budget)
    }

    /// Adds `record` (of notification `id`) unless the page is full; false once it is, and the
    /// page then says where the next one starts.
    mutating func add(_ record: BusValue, id: UInt32) -> Bool {
        let size = record.wireSizeBound
        guard records.count < limit, records.isEmpty || bytes + size <= budget else {
            next = records.isEmpty ? "" : String(lastID)
            return false
        }
        records.append(record)
        bytes += size
        lastID = id
        return true
    }

    private var lastID: UInt32 = 0

    /// The reply: `(aa{sv} notifications, s next)`.
    var reply: [BusValue] { [.array(elementSignature: "a{sv}", records), .string(next)] }

    /// The `after` key of a listing's options: the id a previous page ended at, or nil.
    static func after(_ options: [String: BusValue]) throws(BusError) -> UInt32? {
        guard let token = options["after"] else { return nil }
        guard let text = token.string, let id = UInt32(text) else {
            throw .invalidArgs("'after' must be the 'next' string a previous page returned")
        }
        return id
    }
}
