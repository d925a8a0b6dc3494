#include <gtk/gtk.h>
#include <gio/gdesktopappinfo.h>
#include <gtk-layer-shell/gtk-layer-shell.h>
