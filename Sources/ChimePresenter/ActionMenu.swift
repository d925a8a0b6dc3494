import CGtk
import ChimeControl
import ChimeCore
import ChimeGLib

/// A menu of a notification's actions, for a click set to `menu` and for the "more" button past
/// four: choosing one invokes it, as its button would. The menu belongs to the banner's window
/// and goes with it. It is driven from the keyboard too.
enum ActionMenu {
    /// Where the menu opens; it is attached to that widget.
    enum Place {
        /// At the pointer, for a click on the banner's window.
        case pointer(on: UnsafeMutablePointer<GtkWidget>)
        /// Under a button.
        case below(UnsafeMutablePointer<GtkWidget>)
    }

    /// Opens the menu of `actions` for the click being handled. `keyboard`, on Wayland, is the
    /// banner's `OverlayWindow.takeKeyboard`: the banner holds the keyboard while its menu is open.
    static func popUp(_ actions: [BannerContent.Button], of content: BannerContent, at place: Place,
                      keyboard: ((Bool) -> Void)?, callbacks: PopupPresenter.Callbacks) {
        let widget = switch place {
        case .pointer(let window): window
        case .below(let button): button
        }
        let menu = make(actions, of: content, attachedTo: widget, keyboard: keyboard, callbacks: callbacks)
        // Before the menu's grab begins: after, the compositor would keep the keyboard where it was.
        keyboard?(true)
        switch place {
        case .pointer: gtk_menu_popup_at_pointer(menu.cast(GtkMenu.self), nil)
        case .below(let button): gtk_menu_popup_at_widget(menu.cast(GtkMenu.self), button, GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, nil)
        }
    }

    private static func make(_ actions: [BannerContent.Button], of content: BannerContent, attachedTo widget: UnsafeMutablePointer<GtkWidget>,
                             keyboard: ((Bool) -> Void)?, callbacks: PopupPresenter.Callbacks) -> UnsafeMutablePointer<GtkWidget> {
        let menu = gtk_menu_new()!
        menu.addClass("chime-actions")
        for action in actions {
            // What Chime offers about the app: its line first, set apart from the app's actions.
            if let offer = content.offer(startingWith: action.key) {
                gtk_menu_shell_append(menu.cast(GtkMenuShell.self), gtk_separator_menu_item_new())
                let line = gtk_menu_item_new_with_label(offer.text)!
                gtk_widget_set_sensitive(line, 0)
                line.addClass("offer")
                gtk_menu_shell_append(menu.cast(GtkMenuShell.self), line)
            }
            let item = gtk_menu_item_new_with_label(action.label)!
            if action.destructive { item.addClass("destructive-action") }
            GtkSignals.connect(item.raw, "activate") {
                callbacks.invoke(content.id, action.key, ActivationToken.forCurrentEvent(content) ?? "")
            }
            gtk_menu_shell_append(menu.cast(GtkMenuShell.self), item)
        }
        // A menu made for each click: attached, it goes with its banner, and it goes when it
        // closes, once the item chosen has been activated (GTK closes the menu first).
        gtk_menu_attach_to_widget(menu.cast(GtkMenu.self), widget, nil)
        GtkSignals.connect(menu.raw, "deactivate") {
            keyboard?(false)
            GLibSources.idle {
                gtk_widget_destroy(menu)
                return false
            }
        }
        gtk_widget_show_all(menu)
        // Named as the banners are, so a test (or a script) can find it on the screen.
        gtk_window_set_title(gtk_widget_get_toplevel(menu).cast(GtkWindow.self), "chime-actions-\(content.id)")
        return menu
    }
}
