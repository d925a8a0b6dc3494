#include <sys/vfs.h>

// The type of the file system holding an open file (statfs's f_type), or -1: the store's
// intake log needs it, and Swift's Glibc module does not import sys/vfs.h.
static inline long chime_file_system_type(int descriptor) {
    struct statfs info;
    return fstatfs(descriptor, &info) == 0 ? (long)info.f_type : -1;
}
