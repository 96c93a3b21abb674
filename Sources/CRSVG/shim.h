// The part of librsvg's and GLib's C interface that SVGCoder uses, declared here as in their
// headers (librsvg 2.52 and later, GLib 2.x), because their headers are found only through
// pkg-config, whose flags for librsvg include -pthread, which SwiftPM refuses. Each declaration
// must stay compatible with the real one. To check the functions, compile a C file that includes
// <librsvg/rsvg.h> and <gio/gio.h>, defines WEBIMAGE_CRSVG_REAL_TYPES and then includes this
// header, with the flags of `pkg-config --cflags librsvg-2.0`: a declaration that differs from
// the real one is an error.
#ifndef WEBIMAGE_CRSVG_SHIM_H
#define WEBIMAGE_CRSVG_SHIM_H

#include <cairo/cairo.h>
#include <stdint.h>

#ifndef WEBIMAGE_CRSVG_REAL_TYPES
// GLib and GIO.
typedef int gboolean;
typedef uint32_t GQuark;
typedef struct _GError {
    GQuark domain;
    int code;
    char *message;
} GError;
typedef struct _GCancellable GCancellable;
typedef struct _GInputStream GInputStream;
typedef struct _GFile GFile;
typedef void (*GDestroyNotify)(void *data);
#endif

void g_object_unref(void *object);
void g_clear_error(GError **error);
GCancellable *g_cancellable_new(void);
void g_cancellable_cancel(GCancellable *cancellable);
gboolean g_cancellable_is_cancelled(GCancellable *cancellable);
GInputStream *g_memory_input_stream_new_from_data(const void *data, long length, GDestroyNotify destroy);

#ifndef WEBIMAGE_CRSVG_REAL_TYPES
// librsvg.
typedef struct _RsvgHandle RsvgHandle;
typedef enum {
    RSVG_HANDLE_FLAGS_NONE = 0,
    RSVG_HANDLE_FLAG_UNLIMITED = 1 << 0,
    RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA = 1 << 1
} RsvgHandleFlags;
typedef enum {
    RSVG_UNIT_PERCENT,
    RSVG_UNIT_PX,
    RSVG_UNIT_EM,
    RSVG_UNIT_EX,
    RSVG_UNIT_IN,
    RSVG_UNIT_CM,
    RSVG_UNIT_MM,
    RSVG_UNIT_PT,
    RSVG_UNIT_PC
} RsvgUnit;
typedef struct {
    double length;
    RsvgUnit unit;
} RsvgLength;
typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;
#endif

RsvgHandle *rsvg_handle_new_from_stream_sync(GInputStream *input_stream, GFile *base_file, RsvgHandleFlags flags,
                                             GCancellable *cancellable, GError **error);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, gboolean *out_has_width, RsvgLength *out_width,
                                          gboolean *out_has_height, RsvgLength *out_height,
                                          gboolean *out_has_viewbox, RsvgRectangle *out_viewbox);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport,
                                     GError **error);

#endif
