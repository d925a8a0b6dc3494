/// How many time-sensitive notifications an app may send in an hour (`[general]
/// time-sensitive-budget`); past it they arrive as active until the user lets them through.
public struct TimeSensitiveBudget: Equatable, Sendable {
    public var perHour: Int
    /// When its recent time-sensitive notifications came (unix ms).
    public var recent: [Int64]
    /// Past the budget: its time-sensitive notifications arrive as active.
    public var over: Bool
    /// The user let them through ("Let Them Through"): never counted.
    public var exempt: Bool

    public init(perHour: Int, recent: [Int64] = [], over: Bool = false, exempt: Bool = false) {
        self.perHour = perHour
        self.recent = recent
        self.over = over
        self.exempt = exempt
    }

    /// What one time-sensitive notification does to it: counted at `wall`, and past the budget
    /// from this one on when `crosses`.
    public struct Change: Equatable, Sendable {
        public var wall: Int64
        public var crosses: Bool
    }

    func counting(at wall: Int64) -> Change? {
        guard !over, !exempt else { return nil }
        return Change(wall: wall, crosses: recent.filter { wall - $0 < 3_600_000 }.count + 1 > perHour)
    }
}
