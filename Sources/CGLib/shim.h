#include <glib.h>
#include <glib-unix.h>
