// wayland-pointer X Y WIDTH HEIGHT [BUTTON]: a virtual pointer (wlr-virtual-pointer-unstable-v1)
// moved to X,Y of a WIDTH x HEIGHT layout, clicking BUTTON there (272, BTN_LEFT, by default). The
// popup tests on Wayland click banners with it: a headless sway has no pointer of its own.
// BUTTON 0: no click; it says "ready" once the pointer is there and stays until it is killed,
// and the pointer goes with it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

// What wayland-scanner would generate from wlr-virtual-pointer-unstable-v1.xml, for the requests used.
static const struct wl_interface zwlr_virtual_pointer_v1_interface;
static const struct wl_interface *manager_create_types[] = { &wl_seat_interface, &zwlr_virtual_pointer_v1_interface };
static const struct wl_message manager_requests[] = {
    { "create_virtual_pointer", "?on", manager_create_types },
    { "destroy", "", NULL },
};
static const struct wl_interface zwlr_virtual_pointer_manager_v1_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 2, manager_requests, 0, NULL,
};
static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL, NULL };
static const struct wl_message pointer_requests[] = {
    { "motion", "uff", no_types },
    { "motion_absolute", "uuuuu", no_types },
    { "button", "uuu", no_types },
    { "axis", "uuf", no_types },
    { "frame", "", no_types },
    { "axis_source", "u", no_types },
    { "axis_stop", "uu", no_types },
    { "axis_discrete", "uufi", no_types },
    { "destroy", "", no_types },
};
static const struct wl_interface zwlr_virtual_pointer_v1_interface = {
    "zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL,
};

static struct wl_seat *seat;
static struct wl_proxy *manager;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, "wl_seat") == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    else if (strcmp(interface, "zwlr_virtual_pointer_manager_v1") == 0)
        manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { global, global_remove };

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: wayland-pointer X Y WIDTH HEIGHT [BUTTON]\n"); return 2; }
    uint32_t x = atoi(argv[1]), y = atoi(argv[2]), width = atoi(argv[3]), height = atoi(argv[4]);
    uint32_t button = argc > 5 ? atoi(argv[5]) : 272;
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "wayland-pointer: cannot connect to the compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager || !seat) { fprintf(stderr, "wayland-pointer: the compositor has no virtual pointers\n"); return 1; }
    struct wl_proxy *pointer = wl_proxy_marshal_constructor(manager, 0, &zwlr_virtual_pointer_v1_interface, seat, NULL);
    wl_display_roundtrip(display);
    // Each event is a frame of its own, and the compositor has taken it before the next.
    wl_proxy_marshal(pointer, 1, now_ms(), x, y, width, height);
    wl_proxy_marshal(pointer, 4);
    wl_display_roundtrip(display);
    if (button == 0) {
        printf("ready\n");
        fflush(stdout);
        for (;;) pause();
    }
    wl_proxy_marshal(pointer, 2, now_ms(), button, 1);
    wl_proxy_marshal(pointer, 4);
    wl_display_roundtrip(display);
    wl_proxy_marshal(pointer, 2, now_ms(), button, 0);
    wl_proxy_marshal(pointer, 4);
    wl_display_roundtrip(display);
    wl_proxy_marshal(pointer, 8);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
