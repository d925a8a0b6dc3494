import CDraw
import ChimeControl
import ChimeCore
import ChimeGLib

/// One banner laid out at its width with pango, drawn with cairo (`BannerPainter`) onto whatever
/// surface shows it, and what each point of it does when clicked. The same rows as
/// chime-presenter's GTK banner: the icon beside the app's name (with the age of a banner that
/// stays, and the level in words), the close button, the summary (two lines at most), the body
/// (six) with its first image and its links, the first attachment, a progress bar, the reply
/// field, and the action buttons.
final class BannerDrawing {
    enum Target: Equatable {
        case close
        case button(String)
        /// A link of the body, under it: opened by the desktop's handler for it.
        case link(String)
        /// A file it carries (its index): a picture or movie opens, a sound plays.
        case attachment(Int)
        /// The reply field or its send button: typing happens in chime-presenter's field over it.
        case reply
        /// The button past four actions that offers the rest.
        case more
        /// Anywhere else: what the mouse button does to the banner (`[popups] … = …`).
        case banner
    }

    struct Frame {
        var x: Double, y: Double, width: Double, height: Double

        func contains(_ px: Double, _ py: Double) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
    }

    let width: Int
    private(set) var height = 0
    private let look: BannerLook
    private var icon: (surface: OpaquePointer, frame: Frame, symbolic: Bool)?
    private var texts: [(layout: OpaquePointer, x: Double, y: Double, colour: BannerLook.Colour)] = []
    private var age: (since: Int64, layout: OpaquePointer, right: Double, y: Double)?
    private var close = Frame(x: 0, y: 0, width: 0, height: 0)
    private var progress: (frame: Frame, fraction: Double)?
    private var buttons: [(key: String, frame: Frame, label: OpaquePointer, destructive: Bool)] = []
    private var picture: (surface: OpaquePointer, x: Double, y: Double)?
    private var links: [(uri: String, frame: Frame, label: OpaquePointer)] = []
    private var attachment: AttachmentTile?
    /// The reply field (its placeholder) and its send button.
    private var reply: (field: Frame, placeholder: OpaquePointer, send: Frame, sendLabel: OpaquePointer)?
    private var more: (frame: Frame, icon: OpaquePointer?)?
    /// Something drawn came later (a movie's frame): the window paints the banner again.
    var changed: (() -> Void)?
    /// The button or link under the pointer, drawn lighter.
    var hovered: Target?
    /// Whether the corners outside the rounded shape are see-through (a compositor runs):
    /// then the banner is drawn rounded, else square, since those corners would be black.
    var rounded = false

    static let closeSize = 16.0
    static let buttonHeight = 30.0
    static let spacing = 6.0
    static let linkHeight = 26.0
    /// The most links shown under a body.
    static let maximumLinks = 3

    /// `scale`: pixels to a unit of the screen it is first shown on, which images are decoded at.
    init(_ content: BannerContent, settings: PopupSettings, context: OpaquePointer, fonts: BannerFonts, icons: IconTheme, scale: Int,
         log: @escaping (String) -> Void) {
        width = settings.width
        look = BannerLook(level: content.level)
        let inset = look.borderWidth + look.padding
        let contentWidth = Double(width) - 2 * inset
        var textX = inset
        if let (surface, symbolic) = Self.icon(content, size: settings.iconSize, icons: icons, scale: scale, log: log) {
            let side = Double(settings.iconSize)
            let drawn = CairoImages.size(surface)
            // Centred in its square, as GTK centres an image smaller than its place.
            icon = (surface, Frame(x: inset + (side - drawn.0) / 2, y: inset + (side - drawn.1) / 2, width: drawn.0, height: drawn.1),
                    symbolic)
            textX += side + 10
        }
        let textWidth = Double(width) - inset - textX
        var y = inset

        // The header: app name, then the age and level tag at its right, then the close button.
        var right = textX + textWidth - Self.closeSize
        close = Frame(x: right - 2, y: y - 2, width: Self.closeSize + 4, height: Self.closeSize + 4)
        right -= 4
        var headerHeight = Self.closeSize
        if let tag = Self.levelTag(content.level) {
            let layout = Self.layout(context, tag, font: fonts.tag)
            let size = Self.size(layout)
            right -= size.width
            texts.append((layout, right, y, look.levelTag))
            right -= 6
            headerHeight = max(headerHeight, size.height)
        }
        if let since = content.staysSince {
            let layout = Self.layout(context, "", font: fonts.appName)
            age = (since, layout, right, y)
            refreshAge(now: Int64(g_get_real_time()) / 1_000)
            right -= Self.size(layout).width + 6
        }
        let appName = Self.layout(context, content.header, font: fonts.appName, width: max(1, right - textX), lines: 1)
        texts.append((appName, textX, y, look.secondary))
        y += max(headerHeight, Self.size(appName).height) + 2

        let summary = Self.layout(context, LineLimit.oneParagraph(content.summary, lines: 2), font: fonts.summary,
                                  width: textWidth, lines: 2)
        texts.append((summary, textX, y, look.text))
        y += Self.size(summary).height
        if !content.body.isEmpty {
            let body = Self.layout(context, LineLimit.oneParagraph(PangoMarkup.from(content.body), lines: 6), font: fonts.body,
                                   width: textWidth, lines: 6, markup: true)
            texts.append((body, textX, y + 2, look.text))
            y += 2 + Self.size(body).height
            if let surface = Self.bodyImage(content, width: max(16, Int(textWidth)), icons: icons, scale: scale, log: log) {
                picture = (surface, textX, y + 6)
                y += 6 + CairoImages.size(surface).height
            }
            y = layLinks(content.body, context: context, font: fonts.button, x: textX, y: y, width: textWidth)
        }
        if let frame = icon?.frame { y = max(y, inset + max(frame.height, Double(settings.iconSize))) }

        if !content.attachments.isEmpty {
            y += Self.spacing
            let tile = AttachmentTile(content.attachments, x: inset, y: y, width: contentWidth, context: context, fonts: fonts,
                                      icons: icons, scale: scale, log: log)
            tile.changed = { [weak self] in self?.changed?() }
            attachment = tile
            y += tile.height
        }

        if let percent = content.progress {
            y += Self.spacing
            progress = (Frame(x: inset, y: y, width: contentWidth, height: 6), min(1, max(0, Double(percent) / 100)))
            y += 6
        }
        if let placeholder = content.replyPlaceholder {
            y += Self.spacing
            let sendLabel = Self.layout(context, content.replySubmitText, font: fonts.button)
            let sendWidth = Self.size(sendLabel).width + 20
            let field = Frame(x: inset, y: y, width: contentWidth - sendWidth - Self.spacing, height: Self.buttonHeight)
            let text = Self.layout(context, placeholder, font: fonts.button, width: field.width - 16, lines: 1)
            reply = (field, text, Frame(x: field.x + field.width + Self.spacing, y: y, width: sendWidth, height: Self.buttonHeight), sendLabel)
            y += Self.buttonHeight
        }
        if !content.buttons.isEmpty {
            y += Self.spacing
            let count = Double(content.buttons.count)
            // Past four buttons the rest stay reachable: a "more" button at the end offers them.
            var rowWidth = contentWidth
            if !content.moreActions.isEmpty {
                let frame = Frame(x: inset + contentWidth - Self.buttonHeight, y: y, width: Self.buttonHeight, height: Self.buttonHeight)
                more = (frame, icons.file("view-more-symbolic", size: 16 * scale).flatMap {
                    try? CairoImages.surface(file: $0, size: 16, scale: scale).get()
                })
                rowWidth -= Self.buttonHeight + Self.spacing
            }
            let buttonWidth = (rowWidth - Self.spacing * (count - 1)) / count
            for (index, button) in content.buttons.enumerated() {
                let frame = Frame(x: inset + Double(index) * (buttonWidth + Self.spacing), y: y, width: buttonWidth, height: Self.buttonHeight)
                let label = Self.layout(context, button.label, font: fonts.button, width: max(1, buttonWidth - 20), lines: 1)
                pango_layout_set_alignment(label, PANGO_ALIGN_CENTER)
                buttons.append((button.key, frame, label, button.destructive))
            }
            y += Self.buttonHeight
        }
        height = Int((y + inset).rounded(.up))
    }

    /// The body's links (those chimed kept, checked again here), each a target of its own in a
    /// row under the text, named by where it goes: "example.org ↗". Returns the row's bottom.
    private func layLinks(_ body: String, context: OpaquePointer, font: String, x: Double, y: Double, width: Double) -> Double {
        let found = PangoMarkup.links(in: body).filter { LinkScheme.isOpenable($0.uri) }.prefix(Self.maximumLinks)
        guard !found.isEmpty else { return y }
        let each = (width - Self.spacing * Double(found.count - 1)) / Double(found.count)
        var left = x
        for link in found {
            let label = Self.layout(context, LinkScheme.destination(link.uri) + " ↗", font: font, width: each - 20, lines: 1)
            let drawn = min(each, Self.size(label).width + 20)
            links.append((link.uri, Frame(x: left, y: y + 2, width: drawn, height: Self.linkHeight), label))
            left += drawn + Self.spacing
        }
        return y + 2 + Self.linkHeight
    }

    /// Where a target is drawn, for what opens over it or under it (the reply field, the menu).
    func frame(of target: Target) -> Frame? {
        switch target {
        case .reply: reply.map { Frame(x: $0.field.x, y: $0.field.y, width: $0.send.x + $0.send.width - $0.field.x, height: $0.field.height) }
        case .more: more?.frame
        default: nil
        }
    }

    deinit {
        if let reply {
            g_object_unref(UnsafeMutableRawPointer(reply.placeholder))
            g_object_unref(UnsafeMutableRawPointer(reply.sendLabel))
        }
        if let icon = more?.icon { cairo_surface_destroy(icon) }
        if let picture { cairo_surface_destroy(picture.surface) }
        for link in links { g_object_unref(UnsafeMutableRawPointer(link.label)) }
        if let icon { cairo_surface_destroy(icon.surface) }
        for text in texts { g_object_unref(UnsafeMutableRawPointer(text.layout)) }
        if let age { g_object_unref(UnsafeMutableRawPointer(age.layout)) }
        for button in buttons { g_object_unref(UnsafeMutableRawPointer(button.label)) }
    }

    /// What a click at (x, y) of the banner does.
    func target(x: Double, y: Double) -> Target {
        if close.contains(x, y) { return .close }
        if let button = buttons.first(where: { $0.frame.contains(x, y) }) { return .button(button.key) }
        if let link = links.first(where: { $0.frame.contains(x, y) }) { return .link(link.uri) }
        if let attachment, attachment.frame?.contains(x, y) == true { return .attachment(0) }
        if let reply, reply.field.contains(x, y) || reply.send.contains(x, y) { return .reply }
        if let more, more.frame.contains(x, y) { return .more }
        return .banner
    }

    /// Says again how long ago a banner that stays came; false for one that does not.
    @discardableResult
    func refreshAge(now: Int64) -> Bool {
        guard let age else { return false }
        pango_layout_set_text(age.layout, RelativeAge.text(since: age.since, now: now), -1)
        return true
    }

    func draw(_ cr: OpaquePointer) {
        let paint = BannerPainter(cr: cr, look: look)
        let border = look.borderWidth
        let whole = Frame(x: 0, y: 0, width: Double(width), height: Double(height))
        let radius = rounded ? look.radius : 0
        if rounded {
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        }
        paint.fill(whole, radius: radius, look.border)
        paint.fill(Frame(x: border, y: border, width: whole.width - 2 * border, height: whole.height - 2 * border),
                   radius: max(0, radius - border), look.background)
        if let icon {
            if icon.symbolic { paint.symbolic(icon.surface, x: icon.frame.x, y: icon.frame.y) } else { paint.image(icon.surface, x: icon.frame.x, y: icon.frame.y) }
        }
        for text in texts { paint.text(text.layout, x: text.x, y: text.y, colour: text.colour) }
        if let age { paint.text(age.layout, x: age.right - Self.size(age.layout).width, y: age.y, colour: look.secondary) }
        paint.cross(in: close)
        if let picture { paint.image(picture.surface, x: picture.x, y: picture.y) }
        for link in links {
            paint.button(link.frame, hovered: hovered == .link(link.uri))
            paint.label(link.label, in: link.frame, colour: look.text)
        }
        attachment?.draw(paint, hovered: hovered == .attachment(0))
        if let progress {
            paint.fill(progress.frame, radius: 3, look.progressTrough)
            var done = progress.frame
            done.width *= progress.fraction
            paint.fill(done, radius: 3, look.progress)
        }
        if let reply {
            paint.boxed(reply.field, look.field)
            paint.label(reply.placeholder, in: reply.field, inset: 8, colour: look.secondary)
            paint.button(reply.send, hovered: hovered == .reply)
            paint.label(reply.sendLabel, in: reply.send, colour: look.text)
        }
        if let more {
            paint.button(more.frame, hovered: hovered == .more)
            if let icon = more.icon { paint.symbolic(icon, x: more.frame.x + (more.frame.width - 16) / 2, y: more.frame.y + (more.frame.height - 16) / 2) }
        }
        for button in buttons {
            paint.button(button.frame, hovered: hovered == .button(button.key), destructive: button.destructive)
            paint.label(button.label, in: button.frame, colour: look.text)
        }
    }

    // MARK: Text

    /// A layout of `text` in `font`; with a width it wraps there, and with `lines` it ends in
    /// "…" past that many. Markup that pango cannot read is shown as plain text.
    static func layout(_ context: OpaquePointer, _ text: String, font: String, width: Double? = nil, lines: Int? = nil,
                       markup: Bool = false) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        let description = pango_font_description_from_string(font)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        if let width {
            pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        if let lines {
            pango_layout_set_height(layout, -Int32(lines))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        if markup, pango_parse_markup(text, -1, 0, nil, nil, nil, nil) != 0 {
            pango_layout_set_markup(layout, text, -1)
        } else {
            pango_layout_set_text(layout, text, -1)
        }
        return layout
    }

    static func size(_ layout: OpaquePointer) -> (width: Double, height: Double) {
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return (Double(width), Double(height))
    }

    static func levelTag(_ level: InterruptionLevel) -> String? {
        switch level {
        case .timeSensitive: tr("Time-Sensitive")
        case .critical: tr("Critical")
        case .passive, .active: nil
        }
    }

    // MARK: Images

    /// GTK's test: the file's name, without its extension, ends in `-symbolic` (or `.symbolic`,
    /// the name of a symbolic icon GTK made into a PNG).
    static func isSymbolic(_ path: String) -> Bool {
        guard let name = path.split(separator: "/").last else { return false }
        let stem = name.split(separator: ".", omittingEmptySubsequences: false).count > 1
            ? name[..<(name.lastIndex(of: ".") ?? name.endIndex)] : name[...]
        return stem.hasSuffix("-symbolic") || stem.hasSuffix(".symbolic")
    }

    /// The body's first image (`<img src>`: a file chimed checked, or an icon name), at most
    /// `width` wide and 120 pixels high, never enlarged; its alt text stays in the text. One
    /// that cannot be shown is said in the log.
    private static func bodyImage(_ content: BannerContent, width: Int, icons: IconTheme, scale: Int,
                                  log: (String) -> Void) -> OpaquePointer? {
        guard let source = PangoMarkup.imageSources(in: content.body).first else { return nil }
        let path = source.hasPrefix("/") ? source : icons.file(source, size: 48 * scale)
        guard let path else { return nil }
        let size = source.hasPrefix("/") ? (width, 120) : (48, 48)
        switch CairoImages.surface(file: path, within: size.0, size.1, scale: scale) {
        case .success(let surface): return surface
        case .failure(let problem):
            log("\(problem); notification \(content.id)'s banner goes without its body image")
            return nil
        }
    }

    /// The image-data, else the icon file or themed name, else the icon of the app's desktop
    /// file, scaled to the icon size, and whether it is a symbolic icon (`*-symbolic`, the kind
    /// GNOME apps and system tools send), drawn in the text's colour as GTK draws them. A file
    /// that cannot be shown is said in the log, and the banner goes without it.
    private static func icon(_ content: BannerContent, size: Int, icons: IconTheme, scale: Int,
                             log: (String) -> Void) -> (OpaquePointer, symbolic: Bool)? {
        if let image = content.image, let surface = CairoImages.surface(image, size: size, scale: scale) { return (surface, false) }
        let named = content.icon.flatMap { $0.isEmpty ? nil : $0 }
        guard let icon = named ?? content.desktopEntry.flatMap(DesktopApps.icon) else { return nil }
        let path = icon.hasPrefix("/") ? icon : icons.file(icon, size: size * scale)
        guard let path else { return nil }
        switch CairoImages.surface(file: path, size: size, scale: scale) {
        case .success(let surface): return (surface, isSymbolic(path))
        case .failure(let problem):
            log("\(problem); notification \(content.id)'s banner goes without it")
            return nil
        }
    }
}
