#include <sqlite3.h>

// sqlite3_config is variadic, so Swift cannot call it. Turns off SQLite's memory statistics,
// which take a global mutex on every allocation; it only works before SQLite starts.
static inline int chime_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot spell: the result
// text is copied before the callback returns.
static inline void chime_sqlite_result_text_copy(sqlite3_context *context, const char *text, int bytes) {
    sqlite3_result_text(context, text, bytes, SQLITE_TRANSIENT);
}

// Binds a copy of the text (SQLITE_TRANSIENT), so it need not outlive the call; no bytes bind as
// empty text, not NULL.
static inline int chime_sqlite_bind_text_copy(sqlite3_stmt *statement, int position, const void *text, int bytes) {
    return sqlite3_bind_text(statement, position, text ? (const char *)text : "", bytes, SQLITE_TRANSIENT);
}
