import CGioUnix

/// What is done with a file a notification carries, in banners and the panel alike.
public enum AttachmentFiles {
    /// Whether chime-sound can play it: libcanberra plays WAV and Ogg Vorbis; the desktop's
    /// player takes the rest.
    public static func playable(_ type: String) -> Bool {
        let canberra: [String] = ["audio/x-wav", "audio/x-vorbis+ogg"]
        return canberra.contains { g_content_type_is_a(type, $0) != 0 }
    }
}
