// wayland-input COMMAND_FILE: a person at a headless wlroots compositor (sway), for the popup
// tests on Wayland, where the compositor has no pointer or keyboard of its own.
//
// It makes a virtual pointer (wlr-virtual-pointer-unstable-v1) and a virtual keyboard
// (virtual-keyboard-unstable-v1, US layout) and says "ready". They come first and stay: clients
// take a new device in their own time, and events sent before they have are lost. Then at each
// SIGUSR1 it does the one command in COMMAND_FILE and says "done N" (N counts the commands):
//   move X Y WIDTH HEIGHT         the pointer to X,Y of a WIDTH x HEIGHT layout
//   click X Y WIDTH HEIGHT BUTTON  moves there and clicks BUTTON (272 is the left button)
//   type TEXT                     types TEXT (lowercase letters and spaces) and Return
//   key CODE                      presses and releases the key of Linux input code CODE (1 Escape, 111 Delete)
// SIGTERM ends it, and the devices go with it.
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
static void move(struct wl_display *display, struct wl_proxy *pointer, uint32_t x, uint32_t y, uint32_t width, uint32_t height) {
    wl_proxy_marshal(pointer, POINTER_MOTION_ABSOLUTE, now_ms(), x, y, width, height);
    wl_proxy_marshal(pointer, POINTER_FRAME);
    wl_display_roundtrip(display);
}

static void click(struct wl_display *display, struct wl_proxy *pointer, uint32_t button) {
    const uint32_t pressed_then_released[] = { 1, 0 };
    for (int i = 0; i < 2; i++) {
        wl_proxy_marshal(pointer, POINTER_BUTTON, now_ms(), button, pressed_then_released[i]);
        wl_proxy_marshal(pointer, POINTER_FRAME);
        wl_display_roundtrip(display);
    }
}

// Linux input codes of the US layout's letters, a to z.
static const uint32_t letter_codes[26] = { 30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44 };
enum { KEY_SPACE = 57, KEY_ENTER = 28 };

static void press(struct wl_display *display, struct wl_proxy *keyboard, uint32_t code) {
    wl_proxy_marshal(keyboard, KEYBOARD_KEY, now_ms(), code, 1);
    wl_proxy_marshal(keyboard, KEYBOARD_KEY, now_ms(), code, 0);
    wl_display_roundtrip(display);
}

static int type(struct wl_display *display, struct wl_proxy *keyboard, const char *text) {
    for (const char *c = text; *c && *c != '\n'; c++) {
        if (*c >= 'a' && *c <= 'z') press(display, keyboard, letter_codes[*c - 'a']);
        else if (*c == ' ') press(display, keyboard, KEY_SPACE);
        else return fail("type takes lowercase letters and spaces");
    }
    press(display, keyboard, KEY_ENTER);
    return 0;
}

// The keymap a virtual keyboard must give first: the default (US) one, as text in a file.
static int give_keymap(struct wl_display *display, struct wl_proxy *keyboard) {
    struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_keymap *keymap = context ? xkb_keymap_new_from_names(context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS) : NULL;
    char *text = keymap ? xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
    if (!text) return fail("cannot make a keymap");
    size_t size = strlen(text) + 1;
    int fd = memfd_create("keymap", MFD_CLOEXEC);
    if (fd < 0 || write(fd, text, size) != (ssize_t)size) return fail("cannot write the keymap");
    wl_proxy_marshal(keyboard, KEYBOARD_KEYMAP, XKB_KEYMAP_FORMAT_TEXT_V1, fd, (uint32_t)size);
    wl_display_roundtrip(display);
    close(fd);
    return 0;
}

static int run(struct wl_display *display, const char *command_file) {
    struct wl_proxy *pointer = wl_proxy_marshal_constructor(pointer_manager, 0, &zwlr_virtual_pointer_v1_interface, seat, NULL);
    struct wl_proxy *keyboard = wl_proxy_marshal_constructor(keyboard_manager, 0, &zwp_virtual_keyboard_v1_interface, seat, NULL);
    if (give_keymap(display, keyboard) != 0) return 1;
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGUSR1);
    sigaddset(&signals, SIGTERM);
    sigprocmask(SIG_BLOCK, &signals, NULL);
    printf("ready\n");
    fflush(stdout);
    for (int done = 1;; done++) {
        int signal;
        sigwait(&signals, &signal);
        if (signal == SIGTERM) break;
        char line[512] = "";
        FILE *file = fopen(command_file, "r");
        if (!file || !fgets(line, sizeof line, file)) return fail("cannot read the command file");
        fclose(file);
        uint32_t x, y, width, height, button;
        if (sscanf(line, "move %u %u %u %u", &x, &y, &width, &height) == 4) {
            move(display, pointer, x, y, width, height);
        } else if (sscanf(line, "click %u %u %u %u %u", &x, &y, &width, &height, &button) == 5) {
            move(display, pointer, x, y, width, height);
            click(display, pointer, button);
        } else if (sscanf(line, "key %u", &button) == 1) {
            press(display, keyboard, button);
        } else if (strncmp(line, "type ", 5) == 0) {
            if (type(display, keyboard, line + 5) != 0) return 1;
        } else {
            return fail("unknown command");
        }
        printf("done %d\n", done);
        fflush(stdout);
    }
    wl_proxy_marshal(pointer, POINTER_DESTROY);
    wl_proxy_marshal(keyboard, KEYBOARD_DESTROY);
    wl_display_roundtrip(display);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) return fail("usage: wayland-input COMMAND_FILE");
    // sway makes its socket a moment before it accepts on it: try for up to five seconds.
    struct wl_display *display = NULL;
    for (int tries = 0; !display && tries < 50; tries++) {
        display = wl_display_connect(NULL);
        if (!display) usleep(100 * 1000);
    }
    if (!display) return fail("cannot connect to the compositor");
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!seat || !pointer_manager || !keyboard_manager) return fail("the compositor has no seat, or no virtual pointers or keyboards");
    int status = run(display, argv[1]);
    wl_display_disconnect(display);
    return status;
}
