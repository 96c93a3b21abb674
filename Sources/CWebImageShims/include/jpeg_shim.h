#ifndef CWI_JPEG_SHIM_H
#define CWI_JPEG_SHIM_H
/* jpeg: setjmp-guarded entry points over libjpeg-turbo's classic API.
 * Every function returns 0 on success and -1 on failure, with libjpeg's message (or ours)
 * written into `err` (always NUL-terminated when errlen > 0). No function prints anything. */
#include <stddef.h>
#include <stdint.h>

/* What the header says. */
typedef struct cwi_jpeg_header {
    int width;            /* as stored */
    int height;
    int components;       /* 1 (gray), 3 (YCbCr/RGB), 4 (CMYK/YCCK) */
    int color_space;      /* libjpeg's J_COLOR_SPACE value of the source */
    int progressive;      /* 1 when the frame is progressive (SOF2) */
    int adobe_marker;     /* 1 when an Adobe APP14 marker was present */
    int hit_eof;          /* set also on failure: the data ran out before the header was complete */
} cwi_jpeg_header;

/* How decode_into ended. */
typedef struct cwi_jpeg_decode_result {
    int num_warnings;     /* libjpeg warnings (corrupt-data notices) */
    int hit_eof;          /* 1 when the data ran out (libjpeg inserted a fake EOI) */
    int truncated;        /* 1 when pixels are missing: entropy data ran out, or scans are missing */
    int valid_rows;       /* partial mode, single-scan images: rows fully decoded before the data ran out;
                             rows from here on are transparent. Equals the height otherwise. */
} cwi_jpeg_decode_result;

/* One decompression of one buffer; the buffer must outlive the decoder. */
typedef struct cwi_jpeg_decoder cwi_jpeg_decoder;

/* Reads the header (up to the first SOS). Returns NULL on failure (header->hit_eof tells whether
 * the data ran out). Release a non-NULL result with cwi_jpeg_close. */
cwi_jpeg_decoder *cwi_jpeg_open(const uint8_t *data, size_t len, cwi_jpeg_header *header,
                                char *err, size_t errlen);

/* Decodes once, at scale_num/8 (1...16), into caller memory as straight RGBA (gray, CMYK and
 * YCCK converted). `expected_width`/`expected_height` must equal libjpeg's output size (checked);
 * `dst` holds expected_height rows of `stride` bytes (stride >= 4 * expected_width).
 * max_memory caps libjpeg's whole-image buffers (a progressive image's coefficients), 0 = no cap.
 * strict = 1: fail with "truncated" as soon as the data proves incomplete.
 * strict = 0 (partial mode): decode what is there; for single-scan images the rows not received
 * are set to transparent black and decoding stops early. */
int cwi_jpeg_decode_into(cwi_jpeg_decoder *decoder, int scale_num, int strict, size_t max_memory,
                         uint8_t *dst, size_t stride, int expected_width, int expected_height,
                         cwi_jpeg_decode_result *result, char *err, size_t errlen);

void cwi_jpeg_close(cwi_jpeg_decoder *decoder);

/* Encodes `height` rows of RGBA (alpha ignored: composite first) at quality 1...100; with
 * `progressive` non-zero, as a progressive JPEG (libjpeg's standard scan script). `subsampling`
 * is 0 for 4:2:0, 1 for 4:2:2, 2 for 4:4:4; `optimize_coding` non-zero computes Huffman tables
 * for the image (smaller, one more pass); `grayscale` non-zero writes one component, the luma
 * (for pixels with R = G = B, their value), and ignores `subsampling`.
 * On success *out is a malloc'd buffer of exactly *outlen bytes: release it with free()
 * (or cwi_jpeg_free). */
int cwi_jpeg_encode_rgba(const uint8_t *rgba, int width, int height, size_t stride, int quality,
                         int progressive, int subsampling, int optimize_coding, int grayscale, uint8_t **out,
                         unsigned long *outlen, char *err, size_t errlen);

void cwi_jpeg_free(void *pointer);

#endif
