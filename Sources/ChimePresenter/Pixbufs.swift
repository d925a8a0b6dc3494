import CGtk
import ChimeCore

/// Raw `image-data` as a GdkPixbuf, scaled to fit a square of `size` pixels.
enum Pixbufs {
    static func from(_ image: ImageData, size: Int) -> OpaquePointer? {
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
