#ifndef CWI_TIFF_SHIM_H
#define CWI_TIFF_SHIM_H
/* tiff: libtiff over memory buffers, with libtiff's messages captured instead of printed.
 * Functions returning int give 0 on success and -1 on failure, with the message written into
 * `err` (always NUL-terminated when errlen > 0). */
#include <stddef.h>
#include <stdint.h>

/* One open in-memory TIFF; the buffer must outlive the reader. */
typedef struct cwi_tiff_reader cwi_tiff_reader;

/* What one page (directory) holds. */
typedef struct cwi_tiff_page {
    uint32_t width;       /* as stored */
    uint32_t height;
    int has_alpha;        /* an extra sample, associated or not */
    int orientation;      /* the Orientation tag, 1...8 (1 when absent or out of range) */
} cwi_tiff_page;

/* Opens `data`. `max_alloc` bounds every single allocation libtiff makes for it. */
cwi_tiff_reader *cwi_tiff_open(const uint8_t *data, size_t size, int64_t max_alloc, char *err, size_t errlen);
void cwi_tiff_close(cwi_tiff_reader *reader);

/* The number of pages, counting at most `max_pages`. */
int cwi_tiff_page_count(cwi_tiff_reader *reader, int max_pages);

/* Makes page `index` current and describes it. */
int cwi_tiff_page_info(cwi_tiff_reader *reader, int index, cwi_tiff_page *page, char *err, size_t errlen);

/* Decodes the current page into `rgba` (width * height * 4 bytes): 8-bit RGBA in stored row
 * order (the orientation is not applied), straight alpha. Any layout libtiff's RGBA interface
 * reads: strips or tiles, any compression it was built with, palette, gray, 16-bit. */
int cwi_tiff_read_rgba(cwi_tiff_reader *reader, uint8_t *rgba, const cwi_tiff_page *page, char *err, size_t errlen);

/* How a page with more than 8 bits a sample stores them, when it is read row by row. */
typedef struct cwi_tiff_deep_layout {
    int samples;     /* 1 gray, 2 gray and alpha, 3 RGB, 4 RGBA */
    int is_float;    /* 32-bit IEEE floats (linear light, 0...1), else 16-bit unsigned integers */
    int associated;  /* the alpha is associated (the colour premultiplied by it) */
} cwi_tiff_deep_layout;

/* Whether the current page (`page` describes it) holds 16-bit unsigned or 32-bit float samples
 * in strips, contiguous, min-is-black gray or RGB, with alpha as its one extra sample if any:
 * 1 with `layout` filled, else 0 (the page is read through cwi_tiff_read_rgba at 8 bits). */
int cwi_tiff_read_deep_layout(cwi_tiff_reader *reader, const cwi_tiff_page *page, cwi_tiff_deep_layout *layout);

/* Reads row `y` of the current page, in a deep layout, into `row` (`length` bytes, at least
 * width * samples * 2 or 4): samples in native byte order. Rows must be read in order from 0. */
int cwi_tiff_read_deep_row(cwi_tiff_reader *reader, void *row, size_t length, uint32_t y, char *err, size_t errlen);

/* Like cwi_tiff_write, from 16-bit RGBA pages (`pages[i]` is widths[i] * heights[i] * 4 samples,
 * native byte order): 16 bits a sample. */
uint8_t *cwi_tiff_write_deep(const uint16_t *const *pages, const uint32_t *widths, const uint32_t *heights,
                             int count, int has_alpha, int gray, size_t *out_size, char *err, size_t errlen);

/* A new TIFF of `count` pages of 8-bit RGBA pixels (`pages[i]` is widths[i] * heights[i] * 4
 * bytes), deflate-compressed with horizontal prediction; RGB when `has_alpha` is 0, else RGBA
 * with unassociated alpha; with `gray`, each pixel's red alone as its gray (min-is-black), with
 * the alpha after it when `has_alpha`. Returns a buffer to release with cwi_tiff_free, or NULL. */
uint8_t *cwi_tiff_write(const uint8_t *const *pages, const uint32_t *widths, const uint32_t *heights, int count,
                        int has_alpha, int gray, size_t *out_size, char *err, size_t errlen);
void cwi_tiff_free(void *buffer);

/* The current page's ICC profile (`xmp` 0, TIFFTAG_ICCPROFILE) or XMP packet (`xmp` 1,
 * TIFFTAG_XMLPACKET): returns 1 with `data` pointing into libtiff's copy, valid until the page
 * changes, or 0 when the page has none. */
int cwi_tiff_current_block(cwi_tiff_reader *reader, int xmp, const uint8_t **data, uint32_t *count);
#endif
