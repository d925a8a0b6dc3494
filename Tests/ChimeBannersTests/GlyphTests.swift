import CDraw
import Testing

/// Chime's words and the apps' texts in Korean, Hebrew and Arabic are drawn with the desktop's
/// fonts, every character a glyph: no empty boxes ("tofu") in a banner or the panel. The fonts
/// are the machine's (fontconfig); the Makefile installs one with Hangul.
@Suite struct GlyphTests {
    @Test(arguments: ["알림 센터: 내일 회의는 10시", "שלום עולם", "مرحبا بالعالم", "Mitteilungen: Nicht stören"])
    func everyCharacterHasAGlyph(_ text: String) {
        let context = pango_font_map_create_context(pango_cairo_font_map_get_default())
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = pango_font_description_from_string("Sans 10")
        defer { pango_font_description_free(font) }
        pango_layout_set_font_description(layout, font)
        pango_layout_set_text(layout, text, -1)
        #expect(pango_layout_get_unknown_glyphs_count(layout) == 0, "\(text)")
    }
}
