#define _GNU_SOURCE
#include <sys/prctl.h>
#include <signal.h>
#include "chime_shims.h"
#include <glib.h>
#include <malloc.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

void chime_release_free_memory(void) { malloc_trim(0); }

void chime_end_with_parent(void) { prctl(PR_SET_PDEATHSIG, SIGTERM); }

void chime_become_subreaper(void) { prctl(PR_SET_CHILD_SUBREAPER, 1); }

int chime_source_continue(void) { return G_SOURCE_CONTINUE; }
int chime_source_remove(void) { return G_SOURCE_REMOVE; }

void chime_iter_append_bool(DBusMessageIter *iter, int value) {
    dbus_bool_t wire = value ? TRUE : FALSE;
    dbus_message_iter_append_basic(iter, DBUS_TYPE_BOOLEAN, &wire);
}

int chime_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int chime_clone_file(int to, int from) {
    return ioctl(to, FICLONE, from);
}

long chime_copy_file_range(int from, long long *from_offset, int to, long long *to_offset, unsigned long count) {
    loff_t in = *from_offset, out = *to_offset;
    ssize_t copied = copy_file_range(from, &in, to, &out, count, 0);
    *from_offset = in;
    *to_offset = out;
    return copied;
}
