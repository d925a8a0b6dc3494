// wayland-input: a person at a headless wlroots compositor (sway), for the popup tests on Wayland,
// where the compositor has no pointer or keyboard of its own.
//
//   wayland-input pointer X Y WIDTH HEIGHT [BUTTON]
//       a virtual pointer (wlr-virtual-pointer-unstable-v1) moved to X,Y of a WIDTH x HEIGHT
//       layout, clicking BUTTON there (272, BTN_LEFT, by default). BUTTON 0: no click; it says
//       "ready" once the pointer is there and stays until it is killed, and the pointer goes with it.
//   wayland-input keyboard TEXT...
//       a virtual keyboard (virtual-keyboard-unstable-v1, US layout). It says "ready" once it is
//       there; at each SIGUSR1 it types the next TEXT (lowercase letters and spaces) and Return
//       into whatever has the keyboard focus, and says "typed N". It comes before the typing
//       because clients take a new keyboard in their own time, and keys sent before are lost.
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

// What wayland-scanner would generate from the two protocols' XML, for the requests used.
static const struct wl_interface zwlr_virtual_pointer_v1_interface;
static const struct wl_interface *pointer_manager_types[] = { &wl_seat_interface, &zwlr_virtual_pointer_v1_interface };
static const struct wl_message pointer_manager_requests[] = {
    { "create_virtual_pointer", "?on", pointer_manager_types },
    { "destroy", "", NULL },
};
static const struct wl_interface zwlr_virtual_pointer_manager_v1_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 2, pointer_manager_requests, 0, NULL,
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
enum { POINTER_MOTION_ABSOLUTE = 1, POINTER_BUTTON = 2, POINTER_FRAME = 4, POINTER_DESTROY = 8 };

static const struct wl_interface zwp_virtual_keyboard_v1_interface;
static const struct wl_interface *keyboard_manager_types[] = { &wl_seat_interface, &zwp_virtual_keyboard_v1_interface };
static const struct wl_message keyboard_manager_requests[] = {
    { "create_virtual_keyboard", "on", keyboard_manager_types },
};
static const struct wl_interface zwp_virtual_keyboard_manager_v1_interface = {
    "zwp_virtual_keyboard_manager_v1", 1, 1, keyboard_manager_requests, 0, NULL,
};
static const struct wl_message keyboard_requests[] = {
    { "keymap", "uhu", no_types },
    { "key", "uuu", no_types },
    { "modifiers", "uuuu", no_types },
    { "destroy", "", no_types },
};
static const struct wl_interface zwp_virtual_keyboard_v1_interface = {
    "zwp_virtual_keyboard_v1", 1, 4, keyboard_requests, 0, NULL,
};
enum { KEYBOARD_KEYMAP = 0, KEYBOARD_KEY = 1, KEYBOARD_DESTROY = 3 };

static struct wl_seat *seat;
static struct wl_proxy *pointer_manager, *keyboard_manager;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, "wl_seat") == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    else if (strcmp(interface, "zwlr_virtual_pointer_manager_v1") == 0)
        pointer_manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    else if (strcmp(interface, "zwp_virtual_keyboard_manager_v1") == 0)
        keyboard_manager = wl_registry_bind(registry, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}
static const struct wl_registry_listener registry_listener = { global, global_remove };

static uint32_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static int fail(const char *message) {
    fprintf(stderr, "wayland-input: %s\n", message);
    return 1;
}

// Each event is a frame of its own, and the compositor has taken it before the next.
static int pointer(struct wl_display *display, int argc, char **argv) {
    if (argc < 6) return fail("pointer needs X Y WIDTH HEIGHT [BUTTON]");
    if (!pointer_manager) return fail("the compositor has no virtual pointers");
    uint32_t x = atoi(argv[2]), y = atoi(argv[3]), width = atoi(argv[4]), height = atoi(argv[5]);
    uint32_t button = argc > 6 ? atoi(argv[6]) : 272;
    struct wl_proxy *device = wl_proxy_marshal_constructor(pointer_manager, 0, &zwlr_virtual_pointer_v1_interface, seat, NULL);
    wl_proxy_marshal(device, POINTER_MOTION_ABSOLUTE, now_ms(), x, y, width, height);
    wl_proxy_marshal(device, POINTER_FRAME);
    wl_display_roundtrip(display);
    if (button == 0) {
        printf("ready\n");
        fflush(stdout);
        for (;;) pause();
    }
    const uint32_t pressed_then_released[] = { 1, 0 };
    for (int i = 0; i < 2; i++) {
        wl_proxy_marshal(device, POINTER_BUTTON, now_ms(), button, pressed_then_released[i]);
        wl_proxy_marshal(device, POINTER_FRAME);
        wl_display_roundtrip(display);
    }
    wl_proxy_marshal(device, POINTER_DESTROY);
    wl_display_roundtrip(display);
    return 0;
}

// Linux input codes of the US layout's letters, a to z.
static const uint32_t letter_codes[26] = { 30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44 };
enum { KEY_SPACE = 57, KEY_ENTER = 28 };

static void press(struct wl_display *display, struct wl_proxy *device, uint32_t code) {
    wl_proxy_marshal(device, KEYBOARD_KEY, now_ms(), code, 1);
    wl_proxy_marshal(device, KEYBOARD_KEY, now_ms(), code, 0);
    wl_display_roundtrip(display);
}

static int keyboard(struct wl_display *display, int argc, char **argv) {
    if (argc < 3) return fail("keyboard needs TEXT...");
    if (!keyboard_manager) return fail("the compositor has no virtual keyboards");
    // The keymap a virtual keyboard must give first: the default (US) one, as text in a file.
    struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_keymap *keymap = context ? xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
    char *text = keymap ? xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
    if (!text) return fail("cannot make a keymap");
    size_t size = strlen(text) + 1;
    int fd = memfd_create("keymap", MFD_CLOEXEC);
    if (fd < 0 || write(fd, text, size) != (ssize_t)size) return fail("cannot write the keymap");
    struct wl_proxy *device = wl_proxy_marshal_constructor(keyboard_manager, 0, &zwp_virtual_keyboard_v1_interface, seat, NULL);
    wl_proxy_marshal(device, KEYBOARD_KEYMAP, XKB_KEYMAP_FORMAT_TEXT_V1, fd, (uint32_t)size);
    wl_display_roundtrip(display);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    printf("ready\n");
    fflush(stdout);
    for (int i = 2; i < argc; i++) {
        int signal;
        sigwait(&usr1, &signal);
        for (const char *c = argv[i]; *c; c++) {
            if (*c >= 'a' && *c <= 'z') press(display, device, letter_codes[*c - 'a']);
            else if (*c == ' ') press(display, device, KEY_SPACE);
            else return fail("keyboard types lowercase letters and spaces");
        }
        press(display, device, KEY_ENTER);
        printf("typed %d\n", i - 1);
        fflush(stdout);
    }
    wl_proxy_marshal(device, KEYBOARD_DESTROY);
    wl_display_roundtrip(display);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return fail("usage: wayland-input pointer X Y WIDTH HEIGHT [BUTTON] | keyboard TEXT...");
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) return fail("cannot connect to the compositor");
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!seat) return fail("the compositor has no seat");
    int status = strcmp(argv[1], "pointer") == 0 ? pointer(display, argc, argv)
               : strcmp(argv[1], "keyboard") == 0 ? keyboard(display, argc, argv)
               : fail("the first argument is pointer or keyboard");
    wl_display_disconnect(display);
    return status;
}
