import Glibc

/// The process's open-file limit. A user session usually starts programs with a soft limit of
/// 1,024 and a far higher hard one, which a program that needs more raises itself (as systemd
/// asks of its services): chimed holds files for the center, attachments and the descriptors
/// calls bring, and running out costs libdbus the bus connection.
public enum OpenFileLimit {
    /// Raises the soft limit to the hard one; returns the limit now in force.
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
