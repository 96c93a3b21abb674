/* png shim: libpng's classic API with setjmp error handling, reading from and writing to memory. */
#include "png_shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define CWI_PNG_MESSAGE_MAX 200
/* Ancillary chunks (iCCP, zTXt, iTXt, sPLT) are inflated or copied by libpng, so their memory is
 * capped; the pixels themselves are bounded by the caller's pixel limit. */
#define CWI_PNG_CHUNK_MALLOC_MAX (8u << 20)
#define CWI_PNG_CHUNK_CACHE_MAX 1000u

struct cwi_png_reader {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t length;
    size_t offset;
    int failed;
    int header_read;
    char message[CWI_PNG_MESSAGE_MAX];
};

static void cwi_copy_message(char *destination, size_t capacity, const char *text) {
    if (capacity == 0) return;
    if (text == NULL) text = "unknown libpng error";
    size_t count = strlen(text);
    if (count >= capacity) count = capacity - 1;
    memcpy(destination, text, count);
    destination[count] = '\0';
}

static void cwi_png_read_error(png_structp png, png_const_charp text) {
    cwi_png_reader *reader = (cwi_png_reader *)png_get_error_ptr(png);
    cwi_copy_message(reader->message, sizeof reader->message, text);
    png_longjmp(png, 1);
}

static void cwi_png_silent_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

/* A read past the end of the data is an error (truncated file), never an out-of-bounds read. */
static void cwi_png_read_memory(png_structp png, png_bytep out, png_size_t count) {
    cwi_png_reader *reader = (cwi_png_reader *)png_get_io_ptr(png);
    if (count > reader->length - reader->offset) {
        png_error(png, "the data ends early (truncated PNG)");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

/* Chunks that cannot change the RGBA8 output are skipped unread: less work, less attack surface. */
static void cwi_png_ignore_unused_chunks(png_structp png) {
#ifdef PNG_HANDLE_AS_UNKNOWN_SUPPORTED
    static const png_byte unused[] = {
        'b', 'K', 'G', 'D', '\0', 'c', 'H', 'R', 'M', '\0', 'g', 'A', 'M', 'A', '\0',
        'h', 'I', 'S', 'T', '\0', 'i', 'C', 'C', 'P', '\0', 'i', 'T', 'X', 't', '\0',
        'o', 'F', 'F', 's', '\0', 'p', 'C', 'A', 'L', '\0', 'p', 'H', 'Y', 's', '\0',
        's', 'B', 'I', 'T', '\0', 's', 'C', 'A', 'L', '\0', 's', 'P', 'L', 'T', '\0',
        's', 'R', 'G', 'B', '\0', 't', 'E', 'X', 't', '\0', 't', 'I', 'M', 'E', '\0',
        'z', 'T', 'X', 't', '\0', 'e', 'X', 'I', 'f', '\0',
    };
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, unused, (int)(sizeof unused / 5));
#else
    (void)png;
#endif
}

cwi_png_reader *cwi_png_reader_create(const uint8_t *data, size_t length, uint32_t max_side) {
    cwi_png_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->data = data;
    reader->length = data == NULL ? 0 : length;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, cwi_png_read_error,
                                         cwi_png_silent_warning);
    if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
    if (reader->png == NULL || reader->info == NULL) {
        cwi_png_reader_destroy(reader);
        return NULL;
    }
    if (max_side == 0 || max_side > PNG_UINT_31_MAX) max_side = PNG_UINT_31_MAX;
    png_set_user_limits(reader->png, max_side, max_side);
    png_set_chunk_malloc_max(reader->png, CWI_PNG_CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(reader->png, CWI_PNG_CHUNK_CACHE_MAX);
    cwi_png_ignore_unused_chunks(reader->png);
    png_set_read_fn(reader->png, reader, cwi_png_read_memory);
    return reader;
}

int cwi_png_reader_read_header(cwi_png_reader *reader, cwi_png_header *header) {
    if (reader->failed || reader->header_read) {
        if (!reader->failed) cwi_copy_message(reader->message, sizeof reader->message, "header already read");
        return -1;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        reader->failed = 1;
        return -1;
    }
    if (reader->length < 8 || png_sig_cmp(reader->data, 0, 8) != 0) {
        png_error(reader->png, "not a PNG signature");
    }
    png_read_info(reader->png, reader->info);
    reader->header_read = 1;
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace,
                 NULL, NULL);
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace == PNG_INTERLACE_ADAM7;
    header->has_trns = png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    return 0;
}

/* Everything becomes 8-bit RGBA: palette and low depths expanded, tRNS turned into alpha, gray
 * copied to RGB, 16-bit samples reduced to their high byte, opaque alpha added where missing.
 * No gamma transformation is set up, so the samples are the stored values. */
static void cwi_png_set_rgba8_transforms(png_structp png, png_infop info) {
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) {
        png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    }
}

/* 16-bit samples become RGBA16 in native byte order: tRNS turned into alpha, gray copied to RGB,
 * opaque alpha added where missing. Only for 16-bit images (palettes are never 16-bit). */
static void cwi_png_set_rgba16_transforms(png_structp png, png_infop info) {
    int color_type = png_get_color_type(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) {
        png_set_filler(png, 0xffff, PNG_FILLER_AFTER);
    }
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    png_set_swap(png);
#endif
}

/* Sets up `deep` (16-bit) or 8-bit output, then reads every row into `destination`, `bytes_per_pixel`
 * a pixel, and reads to IEND. Call inside the caller's setjmp. */
static void cwi_png_read_pixels(cwi_png_reader *reader, uint8_t *destination, size_t length, int deep) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    size_t bytes_per_pixel = deep ? 8 : 4;
    size_t stride = (size_t)width * bytes_per_pixel;
    if (destination == NULL || height == 0 || stride / bytes_per_pixel != width || length / stride < height) {
        png_error(png, "the destination buffer is too small");
    }
    if (deep) {
        if (png_get_bit_depth(png, info) != 16) png_error(png, "not a 16-bit PNG");
        cwi_png_set_rgba16_transforms(png, info);
    } else {
        cwi_png_set_rgba8_transforms(png, info);
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != stride) png_error(png, "unexpected row size after transforms");
    /* Rows go straight into the caller's buffer; for Adam7 each pass fills in its pixels. */
    for (int pass = 0; pass < passes; pass++) {
        uint8_t *row = destination;
        for (png_uint_32 y = 0; y < height; y++, row += stride) {
            png_read_row(png, row, NULL);
        }
    }
    png_read_end(png, NULL);
}

static int cwi_png_reader_decode(cwi_png_reader *reader, uint8_t *destination, size_t length, int deep) {
    if (reader->failed || !reader->header_read) {
        if (!reader->failed) cwi_copy_message(reader->message, sizeof reader->message, "header not read");
        return -1;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        reader->failed = 1;
        return -1;
    }
    cwi_png_read_pixels(reader, destination, length, deep);
    return 0;
}

int cwi_png_reader_decode_rgba(cwi_png_reader *reader, uint8_t *destination, size_t length) {
    return cwi_png_reader_decode(reader, destination, length, 0);
}

int cwi_png_reader_decode_rgba16(cwi_png_reader *reader, uint16_t *destination, size_t count) {
    if (count > SIZE_MAX / 2) count = SIZE_MAX / 2;
    return cwi_png_reader_decode(reader, (uint8_t *)destination, count * 2, 1);
}

const char *cwi_png_reader_message(const cwi_png_reader *reader) { return reader->message; }

void cwi_png_reader_destroy(cwi_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) {
        png_destroy_read_struct(&reader->png, reader->info != NULL ? &reader->info : NULL, NULL);
    }
    free(reader);
}

/* Encoding: libpng appends to a growing buffer kept here, so that it survives a longjmp. */
typedef struct {
    png_structp png;
    png_infop info;
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    char message[CWI_PNG_MESSAGE_MAX];
} cwi_png_writer;

static void cwi_png_write_error(png_structp png, png_const_charp text) {
    cwi_png_writer *writer = (cwi_png_writer *)png_get_error_ptr(png);
    cwi_copy_message(writer->message, sizeof writer->message, text);
    png_longjmp(png, 1);
}

static void cwi_png_write_memory(png_structp png, png_bytep data, png_size_t count) {
    cwi_png_writer *writer = (cwi_png_writer *)png_get_io_ptr(png);
    if (count > writer->capacity - writer->length) {
        size_t needed = writer->length + count;
        if (needed < writer->length) png_error(png, "output too large");
        size_t capacity = writer->capacity < 4096 ? 4096 : writer->capacity;
        while (capacity < needed) {
            if (capacity > SIZE_MAX / 2) png_error(png, "output too large");
            capacity *= 2;
        }
        uint8_t *grown = realloc(writer->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        writer->bytes = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->bytes + writer->length, data, count);
    writer->length += count;
}

static void cwi_png_flush_memory(png_structp png) { (void)png; }

/* What one encode writes: RGBA rows (as RGBA, or RGB with the alpha bytes dropped), or palette
 * indices (one byte a pixel, packed by libpng to `bit_depth`) with their palette. */
typedef struct {
    const uint8_t *pixels;
    uint32_t width;
    uint32_t height;
    int keep_alpha;
    const uint8_t *palette_rgba; /* NULL for RGBA rows */
    int palette_count;
    int bit_depth;
    int compression_level;
    int adaptive_filters;
    int gray; /* pixels are gray bytes (with an alpha byte each when keep_alpha), not RGBA */
    int deep; /* samples are 16-bit, native byte order (two bytes where the above says a byte) */
} cwi_png_image;

static int cwi_png_write(cwi_png_writer *writer, const cwi_png_image *image) {
    if (setjmp(png_jmpbuf(writer->png))) return -1;
    png_structp png = writer->png;
    png_set_write_fn(png, writer, cwi_png_write_memory, cwi_png_flush_memory);
    png_set_compression_level(png, image->compression_level);
    int indexed = image->palette_rgba != NULL;
    /* Palette images compress best unfiltered (the PNG spec's advice). Otherwise either libpng's
     * per-row adaptive choice among the five filters (smaller files) or Up alone: about 2/3 of
     * the time for a 3% (noisy) to 15% (smooth) larger file at level 3. */
    png_set_filter(png, PNG_FILTER_TYPE_BASE,
                   indexed ? PNG_FILTER_NONE : (image->adaptive_filters ? PNG_ALL_FILTERS : PNG_FILTER_UP));
    int color_type = indexed ? PNG_COLOR_TYPE_PALETTE
                   : image->gray ? (image->keep_alpha ? PNG_COLOR_TYPE_GRAY_ALPHA : PNG_COLOR_TYPE_GRAY)
                                 : (image->keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB);
    png_set_IHDR(png, writer->info, image->width, image->height,
                 indexed ? image->bit_depth : (image->deep ? 16 : 8), color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_byte alphas[256];
    if (indexed) {
        png_color colors[256];
        int last_translucent = -1;
        for (int i = 0; i < image->palette_count; i++) {
            colors[i].red = image->palette_rgba[i * 4];
            colors[i].green = image->palette_rgba[i * 4 + 1];
            colors[i].blue = image->palette_rgba[i * 4 + 2];
            alphas[i] = image->palette_rgba[i * 4 + 3];
            if (alphas[i] != 255) last_translucent = i;
        }
        png_set_PLTE(png, writer->info, colors, image->palette_count);
        /* tRNS lists alphas up to the last entry that is not opaque (the caller puts those first). */
        if (last_translucent >= 0) png_set_tRNS(png, writer->info, alphas, last_translucent + 1, NULL);
    }
    png_write_info(png, writer->info);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (image->deep) png_set_swap(png);
#endif
    size_t sample_bytes = image->deep ? 2 : 1;
    size_t stride;
    if (indexed) {
        if (image->bit_depth < 8) png_set_packing(png);
        stride = image->width;
    } else if (image->gray) {
        stride = (size_t)image->width * (image->keep_alpha ? 2 : 1) * sample_bytes;
    } else {
        /* On write, a filler setting drops the fourth byte of each pixel: RGBA rows become RGB. */
        if (!image->keep_alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
        stride = (size_t)image->width * 4 * sample_bytes;
    }
    const uint8_t *row = image->pixels;
    for (uint32_t y = 0; y < image->height; y++, row += stride) {
        png_write_row(png, (png_const_bytep)row);
    }
    png_write_end(png, NULL);
    return 0;
}

static int cwi_png_encode(const cwi_png_image *image, uint8_t **output, size_t *output_length, char *message,
                          size_t message_capacity) {
    *output = NULL;
    *output_length = 0;
    cwi_png_writer writer;
    memset(&writer, 0, sizeof writer);
    if (image->pixels == NULL || image->width == 0 || image->height == 0 || image->width > PNG_UINT_31_MAX ||
        image->height > PNG_UINT_31_MAX) {
        cwi_copy_message(message, message_capacity, "invalid image size");
        return -1;
    }
    if (image->deep && (image->palette_rgba != NULL || (size_t)image->width > SIZE_MAX / 8)) {
        cwi_copy_message(message, message_capacity, "invalid 16-bit image");
        return -1;
    }
    if (image->palette_rgba != NULL &&
        (image->palette_count < 1 || image->palette_count > 256 ||
         (image->bit_depth != 1 && image->bit_depth != 2 && image->bit_depth != 4 && image->bit_depth != 8) ||
         image->palette_count > (1 << image->bit_depth))) {
        cwi_copy_message(message, message_capacity, "invalid palette");
        return -1;
    }
    writer.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer, cwi_png_write_error,
                                         cwi_png_silent_warning);
    if (writer.png != NULL) writer.info = png_create_info_struct(writer.png);
    int status = -1;
    if (writer.png == NULL || writer.info == NULL) {
        cwi_copy_message(writer.message, sizeof writer.message, "out of memory");
    } else {
        status = cwi_png_write(&writer, image);
    }
    if (writer.png != NULL) png_destroy_write_struct(&writer.png, &writer.info);
    if (status != 0) {
        free(writer.bytes);
        cwi_copy_message(message, message_capacity, writer.message);
        return -1;
    }
    /* Hand back a buffer of exactly the bytes written. It grew by doubling from 4 KB, and a
     * caller that keeps the output (the service's result memory cache) would otherwise hold up to
     * twice the bytes it counts, or 4 KB for a tiny image. Shrinking keeps the buffer in place. */
    if (writer.length > 0 && writer.length < writer.capacity) {
        uint8_t *fitted = realloc(writer.bytes, writer.length);
        if (fitted != NULL) writer.bytes = fitted;
    }
    *output = writer.bytes;
    *output_length = writer.length;
    return 0;
}

static int cwi_clamp_level(int level) { return level < 0 || level > 9 ? 6 : level; }

int cwi_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int keep_alpha,
                        int compression_level, int adaptive_filters, uint8_t **output, size_t *output_length,
                        char *message, size_t message_capacity) {
    cwi_png_image image = {pixels, width, height, keep_alpha, NULL, 0, 8,
                           cwi_clamp_level(compression_level), adaptive_filters};
    return cwi_png_encode(&image, output, output_length, message, message_capacity);
}

int cwi_png_encode_gray(const uint8_t *pixels, uint32_t width, uint32_t height, int keep_alpha,
                        int compression_level, int adaptive_filters, uint8_t **output, size_t *output_length,
                        char *message, size_t message_capacity) {
    cwi_png_image image = {pixels, width, height, keep_alpha, NULL, 0, 8,
                           cwi_clamp_level(compression_level), adaptive_filters, 1};
    return cwi_png_encode(&image, output, output_length, message, message_capacity);
}

int cwi_png_encode_deep(const uint16_t *pixels, uint32_t width, uint32_t height, int keep_alpha, int gray,
                        int compression_level, int adaptive_filters, uint8_t **output, size_t *output_length,
                        char *message, size_t message_capacity) {
    cwi_png_image image = {(const uint8_t *)pixels, width, height, keep_alpha, NULL, 0, 16,
                           cwi_clamp_level(compression_level), adaptive_filters, gray ? 1 : 0, 1};
    return cwi_png_encode(&image, output, output_length, message, message_capacity);
}

int cwi_png_encode_indexed(const uint8_t *indices, uint32_t width, uint32_t height,
                           const uint8_t *palette_rgba, int palette_count, int bit_depth,
                           int compression_level, uint8_t **output, size_t *output_length, char *message,
                           size_t message_capacity) {
    if (palette_rgba == NULL) {
        cwi_copy_message(message, message_capacity, "invalid palette");
        return -1;
    }
    cwi_png_image image = {indices, width, height, 1, palette_rgba, palette_count, bit_depth,
                           cwi_clamp_level(compression_level), 0};
    return cwi_png_encode(&image, output, output_length, message, message_capacity);
}

void cwi_png_free(void *pointer) { free(pointer); }
