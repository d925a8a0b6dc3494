import CDraw

/// Cairo drawing in a banner's look, for the banner and what it holds: colours, text, images,
/// rounded boxes, buttons, the boxed field, and the close cross.
struct BannerPainter {
    let cr: OpaquePointer
    let look: BannerLook

    func set(_ colour: BannerLook.Colour) {
        cairo_set_source_rgb(cr, colour.red, colour.green, colour.blue)
    }

    func text(_ layout: OpaquePointer, x: Double, y: Double, colour: BannerLook.Colour) {
        set(colour)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }

    /// A label centred in its frame's height, `inset` from its left.
    func label(_ layout: OpaquePointer, in frame: BannerDrawing.Frame, inset: Double = 10, colour: BannerLook.Colour) {
        text(layout, x: frame.x + inset, y: frame.y + (frame.height - BannerDrawing.size(layout).height) / 2, colour: colour)
    }

    func image(_ surface: OpaquePointer, x: Double, y: Double) {
        cairo_set_source_surface(cr, surface, x, y)
        cairo_paint(cr)
    }

    /// A symbolic icon's shape in the text's colour, as GTK draws them.
    func symbolic(_ surface: OpaquePointer, x: Double, y: Double) {
        set(look.text)
        cairo_mask_surface(cr, surface, x, y)
    }

    func fill(_ frame: BannerDrawing.Frame, radius: Double, _ colour: BannerLook.Colour) {
        set(colour)
        rounded(frame, radius: radius)
        cairo_fill(cr)
    }

    func button(_ frame: BannerDrawing.Frame, hovered: Bool, destructive: Bool = false) {
        boxed(frame, destructive ? look.destructive : hovered ? look.buttonHover : look.button)
    }

    /// A box with a one-pixel border, as buttons and the reply field are drawn.
    func boxed(_ frame: BannerDrawing.Frame, _ inside: BannerLook.Colour) {
        fill(frame, radius: 5, look.buttonBorder)
        fill(BannerDrawing.Frame(x: frame.x + 1, y: frame.y + 1, width: frame.width - 2, height: frame.height - 2), radius: 4, inside)
    }

    /// The close button's cross, inside `frame`.
    func cross(in frame: BannerDrawing.Frame) {
        let inset = 6.0
        set(look.secondary)
        cairo_set_line_width(cr, 1.5)
        cairo_move_to(cr, frame.x + inset, frame.y + inset)
        cairo_line_to(cr, frame.x + frame.width - inset, frame.y + frame.height - inset)
        cairo_move_to(cr, frame.x + frame.width - inset, frame.y + inset)
        cairo_line_to(cr, frame.x + inset, frame.y + frame.height - inset)
        cairo_stroke(cr)
    }

    func rounded(_ frame: BannerDrawing.Frame, radius: Double) {
        let r = min(radius, frame.width / 2, frame.height / 2)
        guard r > 0 else { return cairo_rectangle(cr, frame.x, frame.y, frame.width, frame.height) }
        cairo_new_sub_path(cr)
        cairo_arc(cr, frame.x + frame.width - r, frame.y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, frame.x + frame.width - r, frame.y + frame.height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, frame.x + r, frame.y + frame.height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, frame.x + r, frame.y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }
}
