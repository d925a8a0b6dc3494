#include <sqlite3.h>

// sqlite3_config is variadic, so Swift cannot call it. Turns off SQLite's memory statistics,
// which take a global mutex on every allocation; it only works before SQLite starts.
static inline int chime_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
