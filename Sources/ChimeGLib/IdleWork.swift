/// Work asked for any number of times and done once, when the main loop is next idle (behind
/// everything else): a sweep after deletions, memory handed back after a large call.
public final class IdleWork {
    private var scheduled = false
    private let work: () -> Void

    public init(_ work: @escaping () -> Void) { self.work = work }

    /// Asks for the work, unless it is asked for already.
    public func schedule() {
        guard !scheduled else { return }
        scheduled = true
        GLibSources.idle(priority: GLibSources.lowPriority) { [weak self] in
            self?.scheduled = false
            self?.work()
            return false
        }
    }
}
