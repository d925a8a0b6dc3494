import CGLib
import Glibc

/// A child process watched from the main loop: GLib reaps it and calls back with its wait status.
public enum ChildProcess {
    private final class Watch {
        let exited: (Int32) -> Void
        init(_ exited: @escaping (Int32) -> Void) { self.exited = exited }
    }

    /// Starts `arguments[0]` with the rest; nil with the reason when it cannot start.
    public static func spawn(_ arguments: [String], exited: @escaping (_ waitStatus: Int32) -> Void) -> Result<pid_t, SpawnFailure> {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let result = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
        guard result == 0 else { return .failure(SpawnFailure(message: String(cString: strerror(result)))) }
        let watch = Unmanaged.passRetained(Watch(exited)).toOpaque()
        g_child_watch_add_full(G_PRIORITY_DEFAULT, pid, { _, status, data in
            Unmanaged<Watch>.fromOpaque(data!).takeUnretainedValue().exited(status)
        }, watch, { data in Unmanaged<Watch>.fromOpaque(data!).release() })
        return .success(pid)
    }

    public struct SpawnFailure: Error {
        public var message: String
    }
}
