import CGLib
import ChimeCore
import Glibc

/// gettext for Chime's programs: the locale the environment names (`LANGUAGE`, `LC_ALL`,
/// `LC_MESSAGES`, `LANG`, as gettext reads them), and the `chime` catalogues, installed in
/// PREFIX/share/locale, or in the build tree's .build/locale beside the programs.
public enum Translation {
    public static let domain = "chime"

    /// Call once at start, before other threads. Numbers stay as C writes them: only messages,
    /// dates and character classes follow the locale.
    public static func install() {
        setlocale(LC_ALL, "")
        setlocale(LC_NUMERIC, "C")
        if let folder = catalogueFolder() { bindtextdomain(domain, folder) }
        bind_textdomain_codeset(domain, "UTF-8")
        // gettext gives back the very pointer it was given when it has no translation: then the
        // Swift string is the answer, never a copy of its own temporary bytes.
        Language.lookup = { message in
            message.withCString { text in
                let found = g_dgettext(domain, text)
                return found == text ? message : found.map { String(cString: $0) } ?? message
            }
        }
        Language.pluralLookup = { singular, plural, count in
            singular.withCString { one in
                plural.withCString { many in
                    let found = g_dngettext(domain, one, many, gulong(max(0, count)))
                    return found == one ? singular : found == many ? plural : found.map { String(cString: $0) } ?? plural
                }
            }
        }
    }

    /// `CHIME_LOCALEDIR`, else PREFIX/share/locale beside PREFIX/bin, else the build tree's.
    static func catalogueFolder() -> String? {
        if let folder = getenv("CHIME_LOCALEDIR").map({ String(cString: $0) }), !folder.isEmpty { return folder }
        guard let executable = g_file_read_link("/proc/self/exe", nil) else { return nil }
        defer { g_free(executable) }
        let bin = String(cString: executable).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        // Installed; or the build tree's (.build/locale, beside .build/debug and, through its
        // link, .build/x86_64-unknown-linux-gnu/debug).
        for candidate in [bin + "/../share/locale", bin + "/../locale", bin + "/../../locale"] where access(candidate, R_OK) == 0 {
            return candidate
        }
        return nil
    }
}
