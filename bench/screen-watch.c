// screen-watch: when a headless wlroots compositor's screen changes, for make bench's
// Notify-to-banner latency (issue 37). The same watcher serves every server measured, so each
// figure includes the same compositor frame.
//
// It captures the first output with wlr-screencopy-unstable-v1, keeps the first frame as the
// empty screen and says "ready". Then it asks for each next frame with copy_with_damage, which
// the compositor answers only once something was drawn, and for each prints
//   frame NS SHOWN
// NS being CLOCK_MONOTONIC in nanoseconds when the frame was in hand, SHOWN 1 when the frame
// differs from the empty screen and 0 when it is the empty screen again. SIGTERM ends it.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

// What wayland-scanner would generate from the protocol's XML (version 2), for what is used.
static const struct wl_interface zwlr_screencopy_frame_v1_interface;
static const struct wl_interface *capture_types[] = { &zwlr_screencopy_frame_v1_interface, NULL, &wl_output_interface, NULL, NULL, NULL, NULL };
static const struct wl_message manager_requests[] = {
    { "capture_output", "nio", capture_types },
    { "capture_output_region", "nioiiii", capture_types },
    { "destroy", "", NULL },
};
static const struct wl_interface zwlr_screencopy_manager_v1_interface = {
    "zwlr_screencopy_manager_v1", 2, 3, manager_requests, 0, NULL,
};
static const struct wl_interface *buffer_types[] = { &wl_buffer_interface };
static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL };
static const struct wl_message frame_requests[] = {
    { "copy", "o", buffer_types },
    { "destroy", "", NULL },
    { "copy_with_damage", "2o", buffer_types },
};
static const struct wl_message frame_events[] = {
    { "buffer", "uuuu", no_types },
    { "flags", "u", no_types },
    { "ready", "uuu", no_types },
    { "failed", "", NULL },
    { "damage", "2uuuu", no_types },
};
static const struct wl_interface zwlr_screencopy_frame_v1_interface = {
    "zwlr_screencopy_frame_v1", 2, 3, frame_requests, 5, frame_events,
};
enum { CAPTURE_OUTPUT = 0, FRAME_COPY = 0, FRAME_DESTROY = 1, FRAME_COPY_WITH_DAMAGE = 2 };

struct frame_listener {
    void (*buffer)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t, uint32_t);
    void (*flags)(void *, struct wl_proxy *, uint32_t);
    void (*ready)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t);
    void (*failed)(void *, struct wl_proxy *);
    void (*damage)(void *, struct wl_proxy *, uint32_t, uint32_t, uint32_t, uint32_t);
};

static struct wl_shm *shm;
static struct wl_output *output;
static struct wl_proxy *manager;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, "wl_shm") == 0)
        shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, "wl_output") == 0 && !output)
        output = wl_registry_bind(registry, name, &wl_output_interface, 1);
    else if (strcmp(interface, "zwlr_screencopy_manager_v1") == 0 && version >= 2)
        manager = wl_registry_bind(registry, name, &zwlr_screencopy_manager_v1_interface, 2);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { global, global_remove };

// One capture: the buffer the compositor asks for, then whether the copy came.
struct capture {
    uint32_t format, width, height, stride;
    int described, ready, failed;
};
static void on_buffer(void *data, struct wl_proxy *frame, uint32_t format, uint32_t width, uint32_t height, uint32_t stride) {
    struct capture *capture = data;
    *capture = (struct capture){ format, width, height, stride, 1, 0, 0 };
}
static void on_flags(void *data, struct wl_proxy *frame, uint32_t flags) {}
static void on_ready(void *data, struct wl_proxy *frame, uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec) { ((struct capture *)data)->ready = 1; }
static void on_failed(void *data, struct wl_proxy *frame) { ((struct capture *)data)->failed = 1; }
static void on_damage(void *data, struct wl_proxy *frame, uint32_t x, uint32_t y, uint32_t width, uint32_t height) {}
static const struct frame_listener frame_listener = { on_buffer, on_flags, on_ready, on_failed, on_damage };

static int fail(const char *message) {
    fprintf(stderr, "screen-watch: %s\n", message);
    return 1;
}

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// The output's next frame into `pixels`, through `buffer`: the first plainly, the others once
// something was drawn. 0 when it came.
static int capture(struct wl_display *display, struct wl_buffer *buffer, int with_damage) {
    struct capture state = { 0 };
    struct wl_proxy *frame = wl_proxy_marshal_constructor(manager, CAPTURE_OUTPUT, &zwlr_screencopy_frame_v1_interface, NULL, 0, output);
    wl_proxy_add_listener(frame, (void (**)(void))&frame_listener, &state);
    while (!state.described && !state.failed)
        if (wl_display_dispatch(display) < 0) return -1;
    wl_proxy_marshal(frame, with_damage ? FRAME_COPY_WITH_DAMAGE : FRAME_COPY, buffer);
    while (!state.ready && !state.failed)
        if (wl_display_dispatch(display) < 0) return -1;
    wl_proxy_marshal(frame, FRAME_DESTROY);
    wl_proxy_destroy(frame);
    return state.failed ? -1 : 0;
}

// The size and format of the output's frames, from a capture that is not copied.
static int describe(struct wl_display *display, struct capture *state) {
    struct wl_proxy *frame = wl_proxy_marshal_constructor(manager, CAPTURE_OUTPUT, &zwlr_screencopy_frame_v1_interface, NULL, 0, output);
    wl_proxy_add_listener(frame, (void (**)(void))&frame_listener, state);
    while (!state->described && !state->failed)
        if (wl_display_dispatch(display) < 0) return -1;
    wl_proxy_marshal(frame, FRAME_DESTROY);
    wl_proxy_destroy(frame);
    return state->failed ? -1 : 0;
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) return fail("cannot connect to the compositor");
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!shm || !output || !manager) return fail("the compositor has no output, shared memory or screencopy (version 2)");

    struct capture format = { 0 };
    if (describe(display, &format) != 0) return fail("the compositor does not describe its frames");
    size_t size = (size_t)format.stride * format.height;
    int fd = memfd_create("screen-watch", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) return fail("no shared memory");
    uint8_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    uint8_t *empty = malloc(size);
    if (pixels == MAP_FAILED || !empty) return fail("no memory");
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)format.width, (int32_t)format.height,
                                                         (int32_t)format.stride, format.format);

    if (capture(display, buffer, 0) != 0) return fail("the first frame failed");
    memcpy(empty, pixels, size);
    printf("ready\n");
    for (;;) {
        if (capture(display, buffer, 1) != 0) return fail("a frame failed");
        long long ns = now_ns();
        printf("frame %lld %d\n", ns, memcmp(empty, pixels, size) != 0);
    }
}
