import CGLib
import Glibc

/// GIO's content types (the shared MIME database read from a file's first bytes), loaded the
/// first time a notification carries a file: linked, libgio and what it pulls in (GObject,
/// libmount, SELinux) cost every chimed 1.6 MB of memory it would mostly never use.
enum ContentTypes {
    private typealias Guess = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CChar>?
    private typealias IsA = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32

    private struct Functions: @unchecked Sendable {
        let guess: Guess
        let isA: IsA
    }

    /// Nil when libgio cannot be loaded: every file is then of an unknown type.
    private static let functions: Functions? = {
        guard let library = dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL),
              let guess = dlsym(library, "g_content_type_guess"), let isA = dlsym(library, "g_content_type_is_a") else {
            return nil
        }
        return Functions(guess: unsafeBitCast(guess, to: Guess.self), isA: unsafeBitCast(isA, to: IsA.self))
    }()

    /// The MIME type `head` (a file's first bytes) says, never its name's.
    static func type(of head: [UInt8]) -> String {
        var uncertain: Int32 = 0
        guard let functions, let type = head.withUnsafeBufferPointer({ functions.guess(nil, $0.baseAddress, $0.count, &uncertain) }) else {
            return "application/octet-stream"
        }
        defer { g_free(type) }
        return String(cString: type)
    }

    /// Whether `type` is `other` or a kind of it (Ogg Vorbis is Ogg audio).
    static func type(_ type: String, isA other: String) -> Bool {
        guard let functions else { return type == other }
        return functions.isA(type, other) != 0
    }
}
