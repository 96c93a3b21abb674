#ifndef CWI_PNG_SHIM_H
#define CWI_PNG_SHIM_H
/* png: libpng's classic API behind setjmp, for Swift (which cannot call setjmp).
 *
 * Every entry point returns 0 on success and -1 on failure; after a failure the reader's
 * message says why, and the reader accepts no further calls except destroy. */
#include <stddef.h>
#include <stdint.h>

/* What IHDR and tRNS say, as stored (before any transformation). */
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;   /* 1, 2, 4, 8 or 16 */
    int color_type;  /* PNG_COLOR_TYPE_*: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
    int interlaced;  /* 1 for Adam7 */
    int has_trns;    /* a tRNS chunk precedes IDAT */
} cwi_png_header;

typedef struct cwi_png_reader cwi_png_reader;

/* A reader over `data`, which is not copied and must outlive the reader. Sides larger than
 * `max_side` are refused while reading IHDR. Returns NULL only when memory is exhausted. */
cwi_png_reader *cwi_png_reader_create(const uint8_t *data, size_t length, uint32_t max_side);

/* Reads the signature and every chunk up to the first IDAT. */
int cwi_png_reader_read_header(cwi_png_reader *reader, cwi_png_header *header);

/* Decodes the pixels as RGBA8 (straight alpha, no gamma: the stored sample values, 16-bit
 * samples reduced to their high byte) into `destination`, whose rows are `width * 4` bytes
 * apart, then reads to IEND. Call after read_header; `length` must be at least width*height*4. */
int cwi_png_reader_decode_rgba(cwi_png_reader *reader, uint8_t *destination, size_t length);

/* Decodes a 16-bit PNG (bit_depth 16 in the header; anything else fails) as RGBA16: 16 bits a
 * sample in native byte order, straight alpha, no gamma; gray copied to RGB, a tRNS key colour
 * turned into alpha 0 and 65535, opaque alpha added where missing. `count` (in samples) must be at
 * least width*height*4. Call after read_header, instead of decode_rgba. */
int cwi_png_reader_decode_rgba16(cwi_png_reader *reader, uint16_t *destination, size_t count);

/* Why the last call failed (empty if none did). Owned by the reader. */
const char *cwi_png_reader_message(const cwi_png_reader *reader);

void cwi_png_reader_destroy(cwi_png_reader *reader);

/* Encodes RGBA8 pixels (rows width*4 bytes apart) as an 8-bit RGBA PNG, or as RGB when
 * `keep_alpha` is 0 (the alpha bytes are dropped), with zlib `compression_level` 0-9 and, with
 * `adaptive_filters`, libpng's per-row choice among the five filters (else Up for every row).
 * On success `*output` holds `*output_length` bytes to release with cwi_png_free. On failure
 * `message` (of `message_capacity` bytes) says why. */
int cwi_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int keep_alpha,
                        int compression_level, int adaptive_filters, uint8_t **output, size_t *output_length,
                        char *message, size_t message_capacity);

/* Encodes 8-bit gray pixels (one byte a pixel, rows `width` bytes apart), or gray and alpha
 * when `keep_alpha` (two bytes a pixel), as a grayscale PNG (colour type 0 or 4). Filters,
 * output and errors as cwi_png_encode_rgba. */
int cwi_png_encode_gray(const uint8_t *pixels, uint32_t width, uint32_t height, int keep_alpha,
                        int compression_level, int adaptive_filters, uint8_t **output, size_t *output_length,
                        char *message, size_t message_capacity);

/* Encodes 16-bit samples (native byte order) as a 16-bit PNG: RGBA pixels (four samples a pixel,
 * RGB when `keep_alpha` is 0), or with `gray` gray pixels (one sample, two with alpha when
 * `keep_alpha`). Filters, output and errors as cwi_png_encode_rgba. */
int cwi_png_encode_deep(const uint16_t *pixels, uint32_t width, uint32_t height, int keep_alpha, int gray,
                        int compression_level, int adaptive_filters, uint8_t **output, size_t *output_length,
                        char *message, size_t message_capacity);

/* Encodes a palette image: `indices` holds one byte a pixel (rows `width` bytes apart), each
 * below `palette_count` (1-256), written packed at `bit_depth` (1, 2, 4 or 8, enough for the
 * count); `palette_rgba` holds the entries, with those that are not opaque first (they become
 * tRNS). Output and errors as cwi_png_encode_rgba. */
int cwi_png_encode_indexed(const uint8_t *indices, uint32_t width, uint32_t height,
                           const uint8_t *palette_rgba, int palette_count, int bit_depth,
                           int compression_level, uint8_t **output, size_t *output_length, char *message,
                           size_t message_capacity);

void cwi_png_free(void *pointer);

#endif
