import CGLib
import Glibc

/// A child process watched from the main loop: GLib reaps it and calls back with its wait status.
public enum ChildProcess {
    private final class Watch {
        let exited: (Int32) -> Void
        init(_ exited: @escaping (Int32) -> Void) { self.exited = exited }
    }

    /// Starts `arguments[0]` with the rest; nil with the reason when it cannot start.
    /// `adding`: variables set in its environment over this process's. `ownGroup`: in a process
    /// group of its own (its pid), so all it starts can be ended together. `standardInput`: a
    /// descriptor the child reads as its stdin (this process keeps its own).
    public static func spawn(_ arguments: [String], adding variables: [String: String] = [:], ownGroup: Bool = false,
                             standardInput: Int32? = nil,
                             exited: @escaping (_ waitStatus: Int32) -> Void) -> Result<pid_t, SpawnFailure> {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = []
        if !variables.isEmpty {
            var entry = environ
            while let pointer = entry.pointee {
                let name = String(cString: pointer).prefix { $0 != "=" }
                if variables[String(name)] == nil { environment.append(strdup(pointer)) }
                entry += 1
            }
            environment += variables.map { strdup($0.key + "=" + $0.value) }
            environment.append(nil)
        }
        defer { for pointer in environment { free(pointer) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput { posix_spawn_file_actions_adddup2(&actions, standardInput, 0) }
        let result = environment.isEmpty
            ? posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
            : posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &environment)
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
