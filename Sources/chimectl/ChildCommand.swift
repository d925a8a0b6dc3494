import Glibc

/// A command chimectl runs and waits for: `focus inhibit`'s, on chimectl's own terminal, and
/// `menu`'s program, fed its choices and read for the one chosen.
enum ChildCommand {
    /// Runs `command` (found on PATH) to its end. With `input`, that is its standard input and
    /// its standard output is returned; without, it shares chimectl's. The status is its exit
    /// status, or 128 + the signal that ended it; nil when it could not start.
    static func run(_ command: [String], input: String? = nil) -> (status: Int32, output: String)? {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            for fd in toChild + fromChild where fd >= 0 { close(fd) }
        }
        if input != nil {
            guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { return nil }
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
            // The pipes' own ends go in the child: one left open there is an input that never ends.
            for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        var pid: pid_t = 0
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawnp(&pid, command[0], &actions, nil, argv, environ) == 0 else { return nil }
        var output: [UInt8] = []
        if let input {
            close(toChild[0]); close(fromChild[1])
            (toChild[0], fromChild[1]) = (-1, -1)
            // A program that quits without reading must not end chimectl by SIGPIPE. The choices
            // are a few lines, far below a pipe's buffer, so writing them all first cannot block.
            signal(SIGPIPE, SIG_IGN)
            _ = input.withCString { write(toChild[1], $0, strlen($0)) }
            close(toChild[1])
            toChild[1] = -1
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fromChild[0], &buffer, buffer.count)
                if count > 0 { output += buffer[0..<count] } else if count == 0 || errno != EINTR { break }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), String(decoding: output, as: UTF8.self))
    }
}
