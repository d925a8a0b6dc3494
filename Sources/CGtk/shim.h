#include <gtk/gtk.h>
#include <gdk/gdkwayland.h>
#include <gio/gdesktopappinfo.h>
#include <gtk-layer-shell/gtk-layer-shell.h>
