#include <glib.h>
#include <glib-unix.h>
#include <libintl.h>
#include <locale.h>
