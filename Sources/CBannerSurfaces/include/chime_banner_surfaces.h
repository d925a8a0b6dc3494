// Banners on Wayland for chime-banners: libwayland-client with wlr-layer-shell (and the
// xdg-shell its popups name) and xdg-activation; the protocols' code is made by wayland-scanner
// from protocols/ (`make wayland-protocols`).
#ifndef CHIME_BANNER_SURFACES_H
#define CHIME_BANNER_SURFACES_H

#include <sys/syscall.h>
#include <unistd.h>
#include <wayland-client.h>
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"

// The interfaces wl_registry_bind takes by address: Swift imports C's const globals as values.
static inline const struct wl_interface *chime_compositor_interface(void) { return &wl_compositor_interface; }
static inline const struct wl_interface *chime_shm_interface(void) { return &wl_shm_interface; }
static inline const struct wl_interface *chime_seat_interface(void) { return &wl_seat_interface; }
static inline const struct wl_interface *chime_banner_output_interface(void) { return &wl_output_interface; }
static inline const struct wl_interface *chime_layer_shell_interface(void) { return &zwlr_layer_shell_v1_interface; }
static inline const struct wl_interface *chime_activation_interface(void) { return &xdg_activation_v1_interface; }

// An anonymous file for a shared-memory buffer (memfd_create, MFD_CLOEXEC): glibc declares it only
// under _GNU_SOURCE, which Swift's import of the C library does not set.
static inline int chime_memfd(const char *name) { return (int)syscall(SYS_memfd_create, name, 1u); }

#endif
