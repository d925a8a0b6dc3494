#include <gtk/gtk.h>
#include <gtk-layer-shell/gtk-layer-shell.h>
