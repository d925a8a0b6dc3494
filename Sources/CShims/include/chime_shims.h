// Wrappers for the few libdbus and GLib features Swift cannot import:
// macros with casts and booleans whose C width differs from Swift's Bool.
#ifndef CHIME_SHIMS_H
#define CHIME_SHIMS_H

#include <dbus/dbus.h>

// DBUS_NAME_FLAG_* import as Int32, but dbus_bus_request_name takes an unsigned int.
static inline unsigned int chime_name_flag_allow_replacement(void) { return DBUS_NAME_FLAG_ALLOW_REPLACEMENT; }
static inline unsigned int chime_name_flag_replace_existing(void) { return DBUS_NAME_FLAG_REPLACE_EXISTING; }
static inline unsigned int chime_name_flag_do_not_queue(void) { return DBUS_NAME_FLAG_DO_NOT_QUEUE; }

// G_SOURCE_CONTINUE / G_SOURCE_REMOVE are macros over TRUE / FALSE. Defined in shims.c,
// because including glib.h here would clash with the CGLib module's copy of its inline functions.
int chime_source_continue(void);
int chime_source_remove(void);

// A D-Bus boolean is 32 bits on the wire; passing a 1-byte Swift Bool to libdbus reads past it.
void chime_iter_append_bool(DBusMessageIter *iter, int value);

// glibc's malloc_trim, which Swift's Glibc module does not export: returns freed heap to the system.
void chime_release_free_memory(void);


// prctl(PR_SET_PDEATHSIG, SIGTERM): prctl is variadic, so Swift cannot call it.
// The calling process gets SIGTERM when its parent ends.
void chime_end_with_parent(void);

// prctl(PR_SET_CHILD_SUBREAPER, 1): what this process's descendants leave behind when their
// parent ends becomes its child, not init's (prctl is variadic).
void chime_become_subreaper(void);

// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), which Swift's Glibc module does not export: a counter
// one thread writes to wake another's poll.
int chime_eventfd(void);

// ioctl(to, FICLONE, from): ioctl is variadic. Makes `to` share `from`'s blocks (copy on write)
// on filesystems that can (btrfs, XFS); -1 with errno elsewhere.
int chime_clone_file(int to, int from);

// copy_file_range, which glibc declares only with _GNU_SOURCE: copies in the kernel.
long chime_copy_file_range(int from, long long *from_offset, int to, long long *to_offset, unsigned long count);

#endif
