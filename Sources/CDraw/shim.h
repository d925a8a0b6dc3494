#include <cairo/cairo-xcb.h>
#include <pango/pangocairo.h>
#include <xcb/xcb.h>
#include <xcb/randr.h>

/* RandR's extension id, which Swift cannot take the address of (an incomplete type). */
static inline xcb_extension_t *chime_randr_extension(void) { return &xcb_randr_id; }
