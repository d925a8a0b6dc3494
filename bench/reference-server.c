/* The benchmark's reference: owns org.freedesktop.Notifications and answers Notify with a
 * fresh id and nothing else; CloseNotification emits NotificationClosed. Its cost is the
 * bus's own cost, the limit any real server is measured against.
 *
 * `reference-server --work MICROSECONDS` first works that long for each Notify:
 * a server with that much work of its own, to show what a given amount of work costs a round
 * trip on the machine the benchmark runs on. `--work-on-thread MICROSECONDS` replies first and
 * then has a second thread work that long: a server that leaves its work until after the reply,
 * off the thread that answers the bus. */
#include <dbus/dbus.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <unistd.h>

static const char *PATH = "/org/freedesktop/Notifications";
static const char *IFACE = "org.freedesktop.Notifications";

static long long monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Work the CPU cannot skip or overlap: each step needs the one before. */
static volatile unsigned work_result;
static void work(long long steps) {
    unsigned x = 1;
    for (long long i = 0; i < steps; i++) x = x * 1103515245u + 12345u;
    work_result = x;
}

/* Steps in `nanoseconds` of work, from the fastest of a few timed runs: counted steps rather
 * than a clock, so time the CPU spends on other processes is not taken for this one's work. */
static long long steps_for(long long nanoseconds) {
    const long long trial = 1000000;
    long long fastest = -1;
    for (int run = 0; run < 5; run++) {
        long long start = monotonic_nanoseconds();
        work(trial);
        long long took = monotonic_nanoseconds() - start;
        if (fastest < 0 || took < fastest) fastest = took;
    }
    return fastest > 0 ? nanoseconds * trial / fastest : 0;
}

/* The second thread: a step count of work for each count its eventfd is given. */
static int thread_work_fd = -1;
static long long thread_work_steps = 0;
static void *work_on_thread(void *unused) {
    (void)unused;
    uint64_t calls;
    while (read(thread_work_fd, &calls, sizeof calls) == sizeof calls)
        for (uint64_t call = 0; call < calls; call++) work(thread_work_steps);
    return NULL;
}

/* Microseconds from `text`, or -1 when it is not 0 to 1000000. */
static long microseconds_from(const char *option, const char *text) {
    char *end;
    long microseconds = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || microseconds < 0 || microseconds > 1000000) {
        fprintf(stderr, "reference-server: %s takes microseconds, 0 to 1000000, not '%s'\n", option, text);
        return -1;
    }
    return microseconds;
}

int main(int argc, char **argv) {
    long long work_steps = 0;
    for (int arg = 1; arg < argc; arg += 2) {
        int before = strcmp(argv[arg], "--work") == 0, after = strcmp(argv[arg], "--work-on-thread") == 0;
        long microseconds = (before || after) && arg + 1 < argc ? microseconds_from(argv[arg], argv[arg + 1]) : -2;
        if (microseconds == -2) fprintf(stderr, "usage: reference-server [--work MICROSECONDS] [--work-on-thread MICROSECONDS]\n");
        if (microseconds < 0) return 2;
        if (before) work_steps = steps_for(microseconds * 1000LL);
        else thread_work_steps = steps_for(microseconds * 1000LL);
    }
    if (thread_work_steps) {
        pthread_t thread;
        thread_work_fd = eventfd(0, EFD_CLOEXEC);
        if (thread_work_fd < 0 || pthread_create(&thread, NULL, work_on_thread, NULL) != 0) {
            fprintf(stderr, "reference-server: no second thread\n");
            return 1;
        }
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) { fprintf(stderr, "reference-server: %s\n", error.message); return 1; }
    if (dbus_bus_request_name(bus, "org.freedesktop.Notifications", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error)
        != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "reference-server: name taken\n");
        return 1;
    }
    dbus_uint32_t next = 0;
    while (dbus_connection_read_write_dispatch(bus, -1)) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus))) {
            DBusMessage *reply = NULL;
            if (dbus_message_is_method_call(message, IFACE, "Notify")) {
                if (work_steps) work(work_steps);
                reply = dbus_message_new_method_return(message);
                ++next;
                dbus_message_append_args(reply, DBUS_TYPE_UINT32, &next, DBUS_TYPE_INVALID);
                if (thread_work_steps) {
                    /* The reply out first; the work is then the other thread's. */
                    dbus_connection_send(bus, reply, NULL);
                    dbus_connection_flush(bus);
                    dbus_message_unref(reply);
                    reply = NULL;
                    uint64_t one = 1;
                    if (write(thread_work_fd, &one, sizeof one) != sizeof one) perror("reference-server: eventfd");
                }
            } else if (dbus_message_is_method_call(message, IFACE, "CloseNotification")) {
                dbus_uint32_t id = 0, reason = 3;
                dbus_message_get_args(message, NULL, DBUS_TYPE_UINT32, &id, DBUS_TYPE_INVALID);
                reply = dbus_message_new_method_return(message);
                DBusMessage *closed = dbus_message_new_signal(PATH, IFACE, "NotificationClosed");
                dbus_message_append_args(closed, DBUS_TYPE_UINT32, &id, DBUS_TYPE_UINT32, &reason, DBUS_TYPE_INVALID);
                dbus_connection_send(bus, reply, NULL);
                dbus_message_unref(reply);
                reply = closed;
            } else if (dbus_message_is_method_call(message, IFACE, "GetServerInformation")) {
                const char *name = "reference", *vendor = "chime-bench", *version = "1", *spec = "1.3";
                reply = dbus_message_new_method_return(message);
                dbus_message_append_args(reply, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &vendor,
                                         DBUS_TYPE_STRING, &version, DBUS_TYPE_STRING, &spec, DBUS_TYPE_INVALID);
            }
            if (reply) {
                dbus_connection_send(bus, reply, NULL);
                dbus_message_unref(reply);
            }
            dbus_message_unref(message);
        }
    }
    return 0;
}
