import CPixbuf
import ChimeCore

/// Images as GdkPixbufs, scaled to fit a square of `size` pixels.
public enum Pixbufs {
    /// The most pixels an image file may have: GdkPixbuf decodes a file whole before scaling it,
    /// and a few kilobytes of PNG can claim a billion pixels. 4096 x 4096 decodes to 64 MB.
    public static let maximumFilePixels = 4096 * 4096

    /// An image file, or why it is not shown. Its size is read from its header before anything
    /// is decoded.
    public static func from(file path: String, size: Int) -> Result<OpaquePointer, HintProblem> {
        load(path) { _ in (size, size) }
    }

    /// An image file shrunk to fit `width` x `height`, never enlarged: a picture in a body.
    public static func from(file path: String, within width: Int, _ height: Int) -> Result<OpaquePointer, HintProblem> {
        load(path) { size in
            let scale = min(1, Double(width) / Double(size.width), Double(height) / Double(size.height))
            return (max(1, Int(Double(size.width) * scale)), max(1, Int(Double(size.height) * scale)))
        }
    }

    /// A thumbnail: the part `clip` says of an image file (all of it without one), decoded at
    /// the size that part is drawn at, within `width` x `height` and never enlarged. Decoded
    /// small at once, so a 4000-pixel photo never sits in memory whole.
    public static func thumbnail(file path: String, clip: Attachment.Clip?, within width: Int, _ height: Int) -> Result<OpaquePointer, HintProblem> {
        guard let clip else { return from(file: path, within: width, height) }
        var fileWidth: Int32 = 0, fileHeight: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &fileWidth, &fileHeight) != nil, fileWidth > 0, fileHeight > 0 else {
            return .failure(HintProblem("\(path) is not an image GdkPixbuf can read"))
        }
        let part = (width: clip.width * Double(fileWidth), height: clip.height * Double(fileHeight))
        let scale = min(1, Double(width) / part.width, Double(height) / part.height)
        let loaded = load(path) { _ in (max(1, Int(Double(fileWidth) * scale)), max(1, Int(Double(fileHeight) * scale))) }
        guard case .success(let whole) = loaded else { return loaded }
        defer { g_object_unref(UnsafeMutableRawPointer(whole)) }
        let (wholeWidth, wholeHeight) = (Double(gdk_pixbuf_get_width(whole)), Double(gdk_pixbuf_get_height(whole)))
        let x = Int32(clip.x * wholeWidth), y = Int32(clip.y * wholeHeight)
        let w = max(1, min(Int32(clip.width * wholeWidth), Int32(wholeWidth) - x))
        let h = max(1, min(Int32(clip.height * wholeHeight), Int32(wholeHeight) - y))
        // A copy, so the whole image is freed with `whole` rather than kept behind the part.
        guard let part = gdk_pixbuf_new_subpixbuf(whole, x, y, w, h) else { return .failure(HintProblem("\(path): the clip is empty")) }
        defer { g_object_unref(UnsafeMutableRawPointer(part)) }
        guard let copy = gdk_pixbuf_copy(part) else { return .failure(HintProblem("\(path): out of memory")) }
        return .success(copy)
    }

    /// Reads the file's size from its header, then decodes it at the size `fit` gives for it,
    /// keeping its proportions.
    private static func load(_ path: String, fit: ((width: Int, height: Int)) -> (Int, Int)) -> Result<OpaquePointer, HintProblem> {
        var width: Int32 = 0, height: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &width, &height) != nil, width > 0, height > 0 else {
            return .failure(HintProblem("\(path) is not an image GdkPixbuf can read"))
        }
        guard Int(width) * Int(height) <= maximumFilePixels else {
            return .failure(HintProblem("\(path) is \(width)x\(height) pixels, more than the 4096x4096 a banner loads"))
        }
        let (fitWidth, fitHeight) = fit((Int(width), Int(height)))
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file_at_size(path, Int32(fitWidth), Int32(fitHeight), &error) else {
            defer { g_error_free(error) }
            return .failure(HintProblem("\(path): \(error.map { String(cString: $0.pointee.message) } ?? "cannot be read")"))
        }
        return .success(pixbuf)
    }

    /// Raw `image-data`.
    public static func from(_ image: ImageData, size: Int) -> OpaquePointer? {
        let bytes = image.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let full = gdk_pixbuf_new_from_bytes(bytes, GDK_COLORSPACE_RGB, image.hasAlpha ? 1 : 0,
                                                   image.bitsPerSample, image.width, image.height, image.rowstride) else { return nil }
        let scale = Double(size) / Double(max(image.width, image.height))
        guard scale < 1 else { return full }
        defer { g_object_unref(UnsafeMutableRawPointer(full)) }
        return gdk_pixbuf_scale_simple(full, max(1, Int32(Double(image.width) * scale)),
                                       max(1, Int32(Double(image.height) * scale)), GDK_INTERP_BILINEAR)
    }
}
