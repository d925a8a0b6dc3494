// The desktop's state for chimed (chimed(1), "What you are doing"): libwayland-client with the
// wlr-foreign-toplevel-management protocol (its code is made by wayland-scanner from
// protocols/, `make wayland-protocols`), and libxcb for EWMH on X11.
#ifndef CHIME_DESKTOP_H
#define CHIME_DESKTOP_H

#include <wayland-client.h>
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include <xcb/xcb.h>

// The interfaces wl_registry_bind takes by address: Swift imports C's const globals as values.
static inline const struct wl_interface *chime_toplevel_manager_interface(void) {
    return &zwlr_foreign_toplevel_manager_v1_interface;
}
static inline const struct wl_interface *chime_output_interface(void) { return &wl_output_interface; }

#endif
