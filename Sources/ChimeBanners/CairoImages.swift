import CDraw
import CPixbuf
import ChimeCore

/// Images as cairo surfaces, decoded at the size they are drawn at: a banner keeps only those
/// pixels. Sizes are in the banner's units; at `scale` 2 (a HiDPI screen) an image has two
/// pixels to each unit, and cairo draws it at its size in units. The caller destroys the surface.
enum CairoImages {
    /// A GdkPixbuf's pixels (RGB or RGBA, 8 bits) as a cairo surface, `scale` pixels to a unit:
    /// cairo wants native-endian ARGB with the colour premultiplied by its alpha.
    static func surface(_ pixbuf: OpaquePointer, scale: Int = 1) -> OpaquePointer? {
        let width = gdk_pixbuf_get_width(pixbuf), height = gdk_pixbuf_get_height(pixbuf)
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels >= 3, let pixels = gdk_pixbuf_read_pixels(pixbuf) else { return nil }
        let made = surface(width: width, height: height) { x, y in
            let pixel = pixels + y * stride + x * channels
            return (pixel[0], pixel[1], pixel[2], channels == 4 ? pixel[3] : 255)
        }
        if let made { cairo_surface_set_device_scale(made, Double(scale), Double(scale)) }
        return made
    }

    /// The size an image is drawn at, in units.
    static func size(_ surface: OpaquePointer) -> (width: Double, height: Double) {
        var x = 1.0, y = 1.0
        cairo_surface_get_device_scale(surface, &x, &y)
        return (Double(cairo_image_surface_get_width(surface)) / x, Double(cairo_image_surface_get_height(surface)) / y)
    }

    /// `image-data` scaled to fit a square of `size` units, never enlarged.
    static func surface(_ image: ImageData, size: Int, scale: Int) -> OpaquePointer? {
        guard let pixbuf = Pixbufs.from(image, size: size * scale) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        return surface(pixbuf, scale: scale)
    }

    /// An image file (PNG, SVG, JPEG...) decoded to fit `size` units square, or why it is not.
    static func surface(file path: String, size: Int, scale: Int) -> Result<OpaquePointer, HintProblem> {
        surface(Pixbufs.from(file: path, size: size * scale), path: path, scale: scale)
    }

    /// An image file shrunk to fit `width` x `height` units, never enlarged: a picture in a body.
    static func surface(file path: String, within width: Int, _ height: Int, scale: Int) -> Result<OpaquePointer, HintProblem> {
        surface(Pixbufs.from(file: path, within: width * scale, height * scale), path: path, scale: scale)
    }

    private static func surface(_ loaded: Result<OpaquePointer, HintProblem>, path: String, scale: Int) -> Result<OpaquePointer, HintProblem> {
        switch loaded {
        case .success(let pixbuf):
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            guard let surface = surface(pixbuf, scale: scale) else { return .failure(HintProblem("\(path): not 8-bit RGB")) }
            return .success(surface)
        case .failure(let problem):
            return .failure(problem)
        }
    }

    private static func surface(width: Int32, height: Int32,
                                pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> OpaquePointer? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<Int(height) {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<Int(width) {
                let (red, green, blue, alpha) = pixel(x, y)
                let a = UInt32(alpha)
                func premultiplied(_ value: UInt8) -> UInt32 { (UInt32(value) * a + 127) / 255 }
                row[x] = a << 24 | premultiplied(red) << 16 | premultiplied(green) << 8 | premultiplied(blue)
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
