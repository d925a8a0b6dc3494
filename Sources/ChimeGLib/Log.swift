import CGLib
import ChimeCore
import Glibc
import Synchronization

/// Messages for the journal: chimed writes to stderr, which systemd keeps, from a thread of its
/// own (`LogWriter`).
public enum Log {
    /// The keys `warningOnce` has said. chimed says them from its main loop only, but the tests
    /// decode notifications on many threads at once: an unguarded set crashed a test run.
    private static let said = Mutex<Set<String>>([])

    public static func info(_ message: String) { write("chimed: " + message) }
    /// Only with CHIME_DEBUG=1 in the environment: one line per sound, for tests and bug reports.
    public static func debug(_ message: String) { if debugEnabled { write("chimed: debug: " + message) } }
    private static let debugEnabled = getenv("CHIME_DEBUG").map { String(cString: $0) == "1" } ?? false
    public static func warning(_ message: String) { write("chimed: warning: " + message) }

    /// Says `message` once per `key`, so a flood of the same bad input cannot flood the log.
    public static func warningOnce(key: String, _ message: String) {
        guard said.withLock({ $0.count < 10_000 && $0.insert(key).inserted }) else { return }
        warning(message)
    }

    public static func hasSaid(_ key: String) -> Bool { said.withLock { $0.contains(key) } }

    /// Lets the warnings whose keys start with `prefix` be said again: a problem that went away
    /// and comes back is news.
    public static func forgetSaid(prefix: String) { said.withLock { $0 = $0.filter { !$0.hasPrefix(prefix) } } }

    private static let writer = LogWriter()

    /// What GLib and the libraries on it say (a GLib-CRITICAL) goes the same way, never straight
    /// to a stderr nobody reads, where the write would block the thread that said it.
    public static func takeGLibMessages() {
        g_log_set_writer_func({ level, fields, count, _ in
            var message = "", domain = ""
            for field in UnsafeBufferPointer(start: fields, count: Int(count)) {
                guard let key = field.key, let value = field.value else { continue }
                let text = field.length < 0 ? String(cString: value.assumingMemoryBound(to: CChar.self))
                    : String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
                switch String(cString: key) {
                case "MESSAGE": message = text
                case "GLIB_DOMAIN": domain = text
                default: break
                }
            }
            let serious = level.rawValue & (G_LOG_LEVEL_ERROR.rawValue | G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue) != 0
            if serious || Log.debugEnabled { Log.warning((domain.isEmpty ? "" : domain + ": ") + message) }
            if level.rawValue & G_LOG_LEVEL_ERROR.rawValue != 0 { Log.flush() }  // GLib aborts next
            return G_LOG_WRITER_HANDLED
        }, nil, nil)
    }

    /// Every line waiting written (at most two seconds): before the process exits.
    public static func flush() { writer.flush() }

    private static func write(_ line: String) {
        // What an app sent (its name, a path) can neither forge a line nor send the terminal an
        // escape sequence.
        writer.write(line.withoutControlCharacters() + "\n")
    }
}
