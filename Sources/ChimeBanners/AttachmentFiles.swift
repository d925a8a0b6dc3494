import CGioUnix
import ChimeCore
import ChimeGLib

/// What is done with a file a notification carries, in banners and the panel alike.
public enum AttachmentFiles {
    /// Whether chime-sound can play it (`CanberraFormat`); the desktop's player takes the rest.
    public static func playable(_ attachment: Attachment) -> Bool {
        DescriptorBytes.reading(attachment.path) { bytes in
            CanberraFormat.plays(type: attachment.type, isA: { g_content_type_is_a(attachment.type, $0) != 0 }, bytes: bytes)
        } ?? false
    }
}
