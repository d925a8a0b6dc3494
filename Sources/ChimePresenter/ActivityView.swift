import CGtk
import ChimeControl
import ChimeCore

/// The panel's Activity view: interruptions (banners and sounds) day by day as a bar chart drawn
/// with cairo, then each app's figures for today and the span, as `chimectl report` prints them.
final class ActivityView {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let chart: UnsafeMutablePointer<GtkWidget>
    private let table: UnsafeMutablePointer<GtkWidget>
    private var report = ActivityReport(dates: [], rows: [])

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
        widget.addClass("activity")
        chart = gtk_drawing_area_new()!
        chart.addClass("activity-chart")
        gtk_widget_set_size_request(chart, -1, 140)
        Accessible.name(chart, tr("Interruptions per day"))
        gtk_box_pack_start(widget.cast(GtkBox.self), chart, 0, 0, 0)
        let scrolled = gtk_scrolled_window_new(nil, nil)!
        gtk_scrolled_window_set_policy(scrolled.cast(GtkScrolledWindow.self), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        table = gtk_grid_new()!
        table.addClass("activity-table")
        gtk_grid_set_column_spacing(table.cast(GtkGrid.self), 12)
        gtk_grid_set_row_spacing(table.cast(GtkGrid.self), 4)
        gtk_container_add(scrolled.cast(GtkContainer.self), table)
        gtk_box_pack_start(widget.cast(GtkBox.self), scrolled, 1, 1, 0)
        GtkSignals.connectPointer(chart.raw, "draw") { [weak self] cairo in
            self?.draw(OpaquePointer(cairo))
            return true
        }
    }

    func show(_ report: ActivityReport) {
        self.report = report
        Accessible.name(chart, tr("Interruptions per day: ") + zip(report.dates, report.everyDay)
            .map { "\($0): \($1.interruptions)" }.joined(separator: ", "))
        gtk_widget_queue_draw(chart)
        gtk_container_foreach(table.cast(GtkContainer.self), { child, _ in gtk_widget_destroy(child) }, nil)
        let headings = [tr("App"), tr("Today"), trn("{n} day", "{n} days", report.dates.count), tr("Held"), tr("Quiet")]
        for (column, text) in headings.enumerated() { cell(text, column, 0, style: "heading") }
        for (row, app) in report.apps.enumerated() {
            let values = [app.name, String(app.today.interruptions), String(app.total.interruptions), String(app.total.held), String(app.total.quiet)]
            for (column, text) in values.enumerated() { cell(text, column, Int32(row + 1), style: column == 0 ? "app" : "figure") }
        }
        if report.apps.isEmpty { cell(tr("Nothing reached you in these days"), 0, 1, style: "app") }
        gtk_widget_show_all(table)
    }

    private func cell(_ text: String, _ column: Int, _ row: Int32, style: String) {
        let label = gtk_label_new(text)!
        label.addClass(style)
        gtk_label_set_xalign(label.cast(GtkLabel.self), column == 0 ? 0 : 1)
        if column == 0 {
            gtk_label_set_ellipsize(label.cast(GtkLabel.self), PANGO_ELLIPSIZE_END)
            gtk_widget_set_hexpand(label, 1)
        }
        gtk_grid_attach(table.cast(GtkGrid.self), label, Int32(column), row, 1, 1)
    }

    /// One bar a day, the tallest the chart's height less room for the day's letters under it
    /// and the figure over it; the text in the style's colour, the bars in the accent.
    private func draw(_ cairo: OpaquePointer?) {
        let width = Double(gtk_widget_get_allocated_width(chart)), height = Double(gtk_widget_get_allocated_height(chart))
        let days = report.everyDay
        guard !days.isEmpty else { return }
        var color = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(chart), GTK_STATE_FLAG_NORMAL, &color)
        let most = Double(max(1, days.map(\.interruptions).max() ?? 1))
        let slot = width / Double(days.count)
        let barWidth = max(4, slot * 0.6)
        let bottom = height - 18, top = 16.0
        cairo_set_font_size(cairo, 11)
        for (index, counts) in days.enumerated() {
            let x = Double(index) * slot + (slot - barWidth) / 2
            let barHeight = (bottom - top) * Double(counts.interruptions) / most
            cairo_set_source_rgb(cairo, 0.43, 0.62, 0.92)
            cairo_rectangle(cairo, x, bottom - barHeight, barWidth, max(barHeight, counts.interruptions > 0 ? 1 : 0))
            cairo_fill(cairo)
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
            centred(cairo, String(counts.interruptions), x + barWidth / 2, bottom - barHeight - 4)
            centred(cairo, Self.weekday(report.dates[index]), x + barWidth / 2, height - 4)
        }
    }

    private func centred(_ cairo: OpaquePointer?, _ text: String, _ x: Double, _ y: Double) {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        cairo_move_to(cairo, x - extents.width / 2 - extents.x_bearing, y)
        cairo_show_text(cairo, text)
    }

    /// "Mon" for "2026-12-07", in the locale's words.
    static func weekday(_ date: String) -> String {
        let parts = date.split(separator: "-").compactMap { Int32($0) }
        guard parts.count == 3, let time = g_date_time_new_local(parts[0], parts[1], parts[2], 12, 0, 0),
              let text = g_date_time_format(time, "%a") else { return "" }
        defer {
            g_free(text)
            g_date_time_unref(time)
        }
        return String(cString: text)
    }
}
