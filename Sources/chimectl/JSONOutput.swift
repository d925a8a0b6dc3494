import ChimeCore

/// What `--json` prints: records as objects with their keys in a stable order.
enum JSONOutput {
    typealias Order = ([String: BusValue]) -> [(String, BusValue)]

    static func record(_ entries: [String: BusValue], order: Order = Commands.ordered) -> String {
        JSONText.encode(.vardict(order(entries)))
    }

    static func list(_ records: [[String: BusValue]], order: Order = Commands.ordered) -> String {
        "[" + records.map { record($0, order: order) }.joined(separator: ",") + "]"
    }
}
