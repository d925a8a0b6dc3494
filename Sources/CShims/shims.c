#include <sys/prctl.h>
#include <signal.h>
#include "chime_shims.h"
#include <glib.h>
#include <malloc.h>
#include <sys/eventfd.h>

void chime_release_free_memory(void) { malloc_trim(0); }

void chime_end_with_parent(void) { prctl(PR_SET_PDEATHSIG, SIGTERM); }

int chime_source_continue(void) { return G_SOURCE_CONTINUE; }
int chime_source_remove(void) { return G_SOURCE_REMOVE; }

void chime_iter_append_bool(DBusMessageIter *iter, int value) {
    dbus_bool_t wire = value ? TRUE : FALSE;
    dbus_message_iter_append_basic(iter, DBUS_TYPE_BOOLEAN, &wire);
}

int chime_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
