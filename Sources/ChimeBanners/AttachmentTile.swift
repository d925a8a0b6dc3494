import CDraw
import CPixbuf
import ChimeCore
import Glibc

/// The first file a notification carries, laid out under its text as chime-presenter shows it:
/// a picture's thumbnail, a movie's frame (made by the system's thumbnailer, drawn when it
/// comes; an icon until then), or a sound's play button with its name; "+N" says how many more
/// it carries. A file Chime's copy of is gone says so in words.
final class AttachmentTile {
    /// The button a click lands on; nil for a file that is gone.
    private(set) var frame: BannerDrawing.Frame?
    let height: Double
    /// What is drawn inside: a picture (symbolic icons are drawn in the text's colour), a label,
    /// and the count of the rest.
    private var picture: (surface: OpaquePointer, x: Double, y: Double, symbolic: Bool)?
    private var label: (layout: OpaquePointer, x: Double, y: Double, secondary: Bool)?
    private var more: (layout: OpaquePointer, x: Double, y: Double)?
    /// A movie's frame came after the banner was drawn.
    var changed: (() -> Void)?

    static let thumbnailHeight = 120
    static let padding = (x: 10.0, y: 4.0)

    init(_ attachments: [Attachment], x: Double, y: Double, width: Double, context: OpaquePointer, fonts: BannerFonts,
         icons: IconTheme, scale: Int, log: @escaping (String) -> Void) {
        let attachment = attachments[0]
        let inner = (width: Int(width - 2 * Self.padding.x) - 40, height: Self.thumbnailHeight)
        var right = x
        var movieAt: (x: Double, y: Double)?
        guard access(attachment.path, R_OK) == 0 else {
            let layout = BannerDrawing.layout(context, "\(attachment.name) (deleted)", font: fonts.body, width: width, lines: 1)
            label = (layout, x, y, true)
            height = BannerDrawing.size(layout).height
            return
        }
        switch attachment.kind {
        case .image, .movie:
            var surface: OpaquePointer?
            var box = (width: Double(inner.height), height: Double(inner.height))
            if attachment.kind == .image {
                switch Pixbufs.thumbnail(file: attachment.path, clip: attachment.clip, within: inner.width * scale, inner.height * scale) {
                case .success(let pixbuf):
                    surface = CairoImages.surface(pixbuf, scale: scale)
                    g_object_unref(UnsafeMutableRawPointer(pixbuf))
                case .failure(let problem):
                    log("\(problem); shown as an icon")
                }
            } else {
                // Room for a 16:9 frame from the start, so the banner keeps its size when it comes.
                box.width = Double(min(inner.width, inner.height * 16 / 9))
            }
            if let surface {
                box = CairoImages.size(surface)
                picture = (surface, x + Self.padding.x, y + Self.padding.y, false)
            } else {
                let icon = Self.icon(attachment.kind == .image ? "image-x-generic" : "video-x-generic", size: 48, icons: icons, scale: scale)
                picture = icon.map { ($0, x + Self.padding.x + (box.width - 48) / 2, y + Self.padding.y + (box.height - 48) / 2, false) }
            }
            frame = BannerDrawing.Frame(x: x, y: y, width: box.width + 2 * Self.padding.x, height: box.height + 2 * Self.padding.y)
            if attachment.kind == .movie { movieAt = (x + Self.padding.x, y + Self.padding.y) }
        case .audio:
            let play = Self.icon("media-playback-start-symbolic", size: 16, icons: icons, scale: scale)
            let name = BannerDrawing.layout(context, attachment.name, font: fonts.button, width: min(200, width - 60), lines: 1)
            pango_layout_set_ellipsize(name, PANGO_ELLIPSIZE_MIDDLE)
            let size = BannerDrawing.size(name)
            let rowHeight = max(16, size.height)
            picture = play.map { ($0, x + Self.padding.x, y + Self.padding.y + (rowHeight - 16) / 2, true) }
            label = (name, x + Self.padding.x + 20, y + Self.padding.y + (rowHeight - size.height) / 2, false)
            frame = BannerDrawing.Frame(x: x, y: y, width: size.width + 20 + 2 * Self.padding.x, height: rowHeight + 2 * Self.padding.y)
        }
        right = (frame?.x ?? x) + (frame?.width ?? 0)
        height = frame?.height ?? 0
        if attachments.count > 1 {
            let layout = BannerDrawing.layout(context, "+\(attachments.count - 1)", font: fonts.body)
            more = (layout, right + 6, y + (height - BannerDrawing.size(layout).height) / 2)
        }
        if let movieAt { awaitFrame(attachment, at: movieAt, within: inner, scale: scale, log: log) }
    }

    deinit {
        if let picture { cairo_surface_destroy(picture.surface) }
        if let label { g_object_unref(UnsafeMutableRawPointer(label.layout)) }
        if let more { g_object_unref(UnsafeMutableRawPointer(more.layout)) }
    }

    func draw(_ paint: BannerPainter, hovered: Bool) {
        if let frame { paint.button(frame, hovered: hovered) }
        if let picture {
            if picture.symbolic { paint.symbolic(picture.surface, x: picture.x, y: picture.y) } else { paint.image(picture.surface, x: picture.x, y: picture.y) }
        }
        if let label { paint.text(label.layout, x: label.x, y: label.y, colour: label.secondary ? paint.look.secondary : paint.look.text) }
        if let more { paint.text(more.layout, x: more.x, y: more.y, colour: paint.look.secondary) }
    }

    /// A movie's frame from the system's thumbnailer: at once when it is cached, else when made.
    private func awaitFrame(_ attachment: Attachment, at origin: (x: Double, y: Double), within inner: (width: Int, height: Int),
                            scale: Int, log: @escaping (String) -> Void) {
        MovieThumbnails.shared.thumbnail(of: attachment, log: log) { [weak self] thumbnail in
            guard let self, let thumbnail, case .success(let surface) = CairoImages.surface(file: thumbnail, within: inner.width, inner.height,
                                                                                                 scale: scale)
            else { return }
            if let picture { cairo_surface_destroy(picture.surface) }
            let drawn = CairoImages.size(surface)
            let box = (frame?.width ?? 0) - 2 * Self.padding.x
            picture = (surface, origin.x + max(0, (box - drawn.0) / 2), origin.y + max(0, (Double(inner.height) - drawn.1) / 2), false)
            changed?()
        }
    }

    private static func icon(_ name: String, size: Int, icons: IconTheme, scale: Int) -> OpaquePointer? {
        guard let path = icons.file(name, size: size * scale), case .success(let surface) = CairoImages.surface(file: path, size: size, scale: scale)
        else { return nil }
        return surface
    }
}
