/* Built only when libtiff is (Package.swift defines WEBIMAGE_TIFF then). */
#ifdef WEBIMAGE_TIFF
#include "tiff_shim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

/* ---- errors ---------------------------------------------------------------------------- */

typedef struct cwi_tiff_messages {
    char last_error[256];
} cwi_tiff_messages;

/* Keeps libtiff's latest error; returning 1 stops it reaching the global (printing) handler. */
static int cwi_tiff_on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    cwi_tiff_messages *messages = user;
    char text[200];
    vsnprintf(text, sizeof text, fmt, ap);
    snprintf(messages->last_error, sizeof messages->last_error, "%s%s%s", module ? module : "", module ? ": " : "",
             text);
    return 1;
}

static int cwi_tiff_on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif, (void)user, (void)module, (void)fmt, (void)ap;
    return 1;
}

static void cwi_tiff_set_error(char *err, size_t errlen, const char *what, const cwi_tiff_messages *messages) {
    if (errlen == 0) return;
    if (messages && messages->last_error[0]) {
        snprintf(err, errlen, "%s (%s)", what, messages->last_error);
    } else {
        snprintf(err, errlen, "%s", what);
    }
}

/* ---- a memory file ---------------------------------------------------------------------- */

typedef struct cwi_tiff_memory {
    uint8_t *data;
    size_t size;
    size_t capacity; /* 0: read-only, `data` not ours */
    size_t position;
    int failed;      /* a write could not grow the buffer */
} cwi_tiff_memory;

static tmsize_t cwi_memory_read(thandle_t handle, void *buffer, tmsize_t count) {
    cwi_tiff_memory *memory = handle;
    if (count <= 0 || memory->position >= memory->size) return 0;
    size_t available = memory->size - memory->position;
    size_t n = (size_t)count < available ? (size_t)count : available;
    memcpy(buffer, memory->data + memory->position, n);
    memory->position += n;
    return (tmsize_t)n;
}

static tmsize_t cwi_memory_write(thandle_t handle, void *buffer, tmsize_t count) {
    cwi_tiff_memory *memory = handle;
    if (count <= 0) return 0;
    if (memory->capacity == 0 && memory->data != NULL) return 0;
    size_t end = memory->position + (size_t)count;
    if (end < memory->position) return 0;
    if (end > memory->capacity) {
        size_t capacity = memory->capacity ? memory->capacity : 65536;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(memory->data, capacity);
        if (grown == NULL) {
            memory->failed = 1;
            return 0;
        }
        memory->data = grown;
        memory->capacity = capacity;
    }
    if (memory->position > memory->size) memset(memory->data + memory->size, 0, memory->position - memory->size);
    memcpy(memory->data + memory->position, buffer, (size_t)count);
    memory->position = end;
    if (end > memory->size) memory->size = end;
    return count;
}

static toff_t cwi_memory_seek(thandle_t handle, toff_t offset, int whence) {
    cwi_tiff_memory *memory = handle;
    uint64_t base = whence == SEEK_CUR ? memory->position : whence == SEEK_END ? memory->size : 0;
    uint64_t target = base + offset;
    if (whence != SEEK_SET && (int64_t)offset < 0 && (uint64_t)(-(int64_t)offset) > base) return (toff_t)-1;
    if (whence == SEEK_SET) target = offset;
    if (target > (uint64_t)SIZE_MAX / 2) return (toff_t)-1;
    memory->position = (size_t)target;
    return target;
}

static int cwi_memory_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t cwi_memory_size(thandle_t handle) { return ((cwi_tiff_memory *)handle)->size; }

static int cwi_memory_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle, (void)base, (void)size;
    return 0;
}

static void cwi_memory_unmap(thandle_t handle, void *base, toff_t size) { (void)handle, (void)base, (void)size; }

static TIFF *cwi_tiff_client_open(cwi_tiff_memory *memory, const char *mode, cwi_tiff_messages *messages,
                                  int64_t max_alloc) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) return NULL;
    if (max_alloc > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_alloc);
    TIFFOpenOptionsSetErrorHandlerExtR(options, cwi_tiff_on_error, messages);
    TIFFOpenOptionsSetWarningHandlerExtR(options, cwi_tiff_on_warning, messages);
    TIFF *tif = TIFFClientOpenExt("memory", mode, memory, cwi_memory_read, cwi_memory_write, cwi_memory_seek,
                                  cwi_memory_close, cwi_memory_size, cwi_memory_map, cwi_memory_unmap, options);
    TIFFOpenOptionsFree(options);
    return tif;
}

/* ---- reading ---------------------------------------------------------------------------- */

struct cwi_tiff_reader {
    TIFF *tif;
    cwi_tiff_memory memory;
    cwi_tiff_messages messages;
};

cwi_tiff_reader *cwi_tiff_open(const uint8_t *data, size_t size, int64_t max_alloc, char *err, size_t errlen) {
    cwi_tiff_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        cwi_tiff_set_error(err, errlen, "out of memory", NULL);
        return NULL;
    }
    reader->memory.data = (uint8_t *)data;
    reader->memory.size = size;
    /* "m": no memory mapping; "h": read the header only, the first directory on demand. */
    reader->tif = cwi_tiff_client_open(&reader->memory, "rm", &reader->messages, max_alloc);
    if (reader->tif == NULL) {
        cwi_tiff_set_error(err, errlen, "not a readable TIFF", &reader->messages);
        free(reader);
        return NULL;
    }
    return reader;
}

void cwi_tiff_close(cwi_tiff_reader *reader) {
    if (reader == NULL) return;
    TIFFClose(reader->tif);
    free(reader);
}

int cwi_tiff_page_count(cwi_tiff_reader *reader, int max_pages) {
    int count = 0;
    if (!TIFFSetDirectory(reader->tif, 0)) return 0;
    do {
        count++;
    } while (count < max_pages && TIFFReadDirectory(reader->tif));
    return count;
}

int cwi_tiff_page_info(cwi_tiff_reader *reader, int index, cwi_tiff_page *page, char *err, size_t errlen) {
    reader->messages.last_error[0] = 0;
    if (index < 0 || index > 65535 || !TIFFSetDirectory(reader->tif, (tdir_t)index)) {
        cwi_tiff_set_error(err, errlen, "the page cannot be read", &reader->messages);
        return -1;
    }
    uint32_t width = 0, height = 0;
    uint16_t orientation = ORIENTATION_TOPLEFT, extra_count = 0;
    uint16_t *extra = NULL;
    if (!TIFFGetField(reader->tif, TIFFTAG_IMAGEWIDTH, &width) ||
        !TIFFGetField(reader->tif, TIFFTAG_IMAGELENGTH, &height)) {
        cwi_tiff_set_error(err, errlen, "the page has no size", &reader->messages);
        return -1;
    }
    TIFFGetFieldDefaulted(reader->tif, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetFieldDefaulted(reader->tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    page->width = width;
    page->height = height;
    page->has_alpha = extra_count > 0 && extra != NULL &&
                      (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA);
    page->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    return 0;
}

/* 8-bit pixels of `samples` samples in `photometric` with one unassociated alpha, in strips: read
 * as stored, since libtiff's RGBA interface would premultiply them (losing the colour under alpha
 * 0 and a level here and there). RGBA (4, RGB) is read straight into place; gray and alpha
 * (2, min-is-black) is spread to RGBA. */
static int cwi_tiff_is_plain_unassociated(TIFF *tif, const cwi_tiff_page *page, uint16_t expected_samples,
                                          uint16_t expected_photometric) {
    uint16_t bits = 0, samples = 0, photometric = 0, planar = PLANARCONFIG_CONTIG, extra_count = 0;
    uint16_t *extra = NULL;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    return bits == 8 && samples == expected_samples && photometric == expected_photometric &&
           planar == PLANARCONFIG_CONTIG && !TIFFIsTiled(tif) && extra_count == 1 && extra != NULL &&
           extra[0] == EXTRASAMPLE_UNASSALPHA && TIFFScanlineSize64(tif) == (uint64_t)page->width * expected_samples;
}

int cwi_tiff_read_rgba(cwi_tiff_reader *reader, uint8_t *rgba, const cwi_tiff_page *page, char *err, size_t errlen) {
    reader->messages.last_error[0] = 0;
    if (cwi_tiff_is_plain_unassociated(reader->tif, page, 2, PHOTOMETRIC_MINISBLACK)) {
        /* Each row is read into the end of its own RGBA row (half of it), then spread forwards:
         * pixel x's two bytes sit at 2w + 2x, at or after the 4x its four go to. */
        for (uint32_t y = 0; y < page->height; y++) {
            uint8_t *row = rgba + (size_t)y * page->width * 4;
            uint8_t *stored = row + (size_t)page->width * 2;
            if (TIFFReadScanline(reader->tif, stored, y, 0) < 0) {
                cwi_tiff_set_error(err, errlen, "the pixels cannot be decoded", &reader->messages);
                return -1;
            }
            for (uint32_t x = 0; x < page->width; x++) {
                uint8_t gray = stored[(size_t)x * 2], alpha = stored[(size_t)x * 2 + 1];
                row[(size_t)x * 4] = gray, row[(size_t)x * 4 + 1] = gray, row[(size_t)x * 4 + 2] = gray;
                row[(size_t)x * 4 + 3] = alpha;
            }
        }
        return 0;
    }
    if (cwi_tiff_is_plain_unassociated(reader->tif, page, 4, PHOTOMETRIC_RGB)) {
        for (uint32_t y = 0; y < page->height; y++) {
            if (TIFFReadScanline(reader->tif, rgba + (size_t)y * page->width * 4, y, 0) < 0) {
                cwi_tiff_set_error(err, errlen, "the pixels cannot be decoded", &reader->messages);
                return -1;
            }
        }
        return 0;
    }
    char why[1024] = "";
    if (!TIFFRGBAImageOK(reader->tif, why)) {
        char text[1100];
        snprintf(text, sizeof text, "this TIFF layout is not supported: %s", why);
        cwi_tiff_set_error(err, errlen, text, NULL);
        return -1;
    }
    /* Asking for the page's own orientation makes libtiff flip nothing: rows come as stored. */
    if (!TIFFReadRGBAImageOriented(reader->tif, page->width, page->height, (uint32_t *)(void *)rgba,
                                   page->orientation, 1)) {
        cwi_tiff_set_error(err, errlen, "the pixels cannot be decoded", &reader->messages);
        return -1;
    }
    /* The raster is ABGR in native order: R, G, B, A bytes on little-endian machines. */
    size_t count = (size_t)page->width * page->height;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = rgba + i * 4;
        uint8_t a = p[0], b = p[1], g = p[2], r = p[3];
        p[0] = r, p[1] = g, p[2] = b, p[3] = a;
    }
#endif
    /* libtiff's RGBA interface premultiplies (associated or not); the model is straight alpha. */
    if (page->has_alpha) {
        for (size_t i = 0; i < count; i++) {
            uint8_t *p = rgba + i * 4;
            unsigned a = p[3];
            if (a == 0 || a == 255) continue;
            for (int c = 0; c < 3; c++) {
                unsigned v = (p[c] * 255u + a / 2) / a;
                p[c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
    return 0;
}

int cwi_tiff_read_deep_layout(cwi_tiff_reader *reader, const cwi_tiff_page *page, cwi_tiff_deep_layout *layout) {
    TIFF *tif = reader->tif;
    uint16_t bits = 0, samples = 0, photometric = 0, planar = PLANARCONFIG_CONTIG, format = SAMPLEFORMAT_UINT;
    uint16_t extra_count = 0;
    uint16_t *extra = NULL;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    int is_float = bits == 32 && format == SAMPLEFORMAT_IEEEFP;
    if (!(bits == 16 && format == SAMPLEFORMAT_UINT) && !is_float) return 0;
    if (planar != PLANARCONFIG_CONTIG || TIFFIsTiled(tif)) return 0;
    int colours = photometric == PHOTOMETRIC_MINISBLACK ? 1 : photometric == PHOTOMETRIC_RGB ? 3 : 0;
    if (colours == 0 || (samples != colours && samples != colours + 1)) return 0;
    if (extra_count != samples - colours) return 0;
    if (extra_count == 1 && (extra == NULL || (extra[0] != EXTRASAMPLE_ASSOCALPHA && extra[0] != EXTRASAMPLE_UNASSALPHA)))
        return 0;
    if (TIFFScanlineSize64(tif) != (uint64_t)page->width * samples * (bits / 8)) return 0;
    layout->samples = samples;
    layout->is_float = is_float;
    layout->associated = extra_count == 1 && extra[0] == EXTRASAMPLE_ASSOCALPHA;
    return 1;
}

int cwi_tiff_read_deep_row(cwi_tiff_reader *reader, void *row, size_t length, uint32_t y, char *err, size_t errlen) {
    reader->messages.last_error[0] = 0;
    if (row == NULL || (uint64_t)length < TIFFScanlineSize64(reader->tif)) {
        cwi_tiff_set_error(err, errlen, "the row buffer is too small", NULL);
        return -1;
    }
    if (TIFFReadScanline(reader->tif, row, y, 0) < 0) {
        cwi_tiff_set_error(err, errlen, "the pixels cannot be decoded", &reader->messages);
        return -1;
    }
    return 0;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* Writes 8-bit (`sample_bytes` 1) or 16-bit (2) RGBA pages, as cwi_tiff_write describes. */
static uint8_t *cwi_tiff_write_pages(const void *const *pages, int sample_bytes, const uint32_t *widths,
                                     const uint32_t *heights, int count, int has_alpha, int gray, size_t *out_size,
                                     char *err, size_t errlen) {
    cwi_tiff_memory memory = {0};
    cwi_tiff_messages messages = {{0}};
    TIFF *tif = cwi_tiff_client_open(&memory, "w", &messages, 0);
    if (tif == NULL) {
        cwi_tiff_set_error(err, errlen, "libtiff could not start a file", &messages);
        free(memory.data);
        return NULL;
    }
    const int samples = gray ? (has_alpha ? 2 : 1) : (has_alpha ? 4 : 3);
    uint8_t *row = NULL;
    int ok = 1;
    for (int page = 0; ok && page < count; page++) {
        const uint32_t width = widths[page], height = heights[page];
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, samples);
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8 * sample_bytes);
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, gray ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
        TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
        TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
        if (has_alpha) {
            uint16_t extra[1] = {EXTRASAMPLE_UNASSALPHA};
            TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, extra);
        }
        if (count > 1) {
            TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
            TIFFSetField(tif, TIFFTAG_PAGENUMBER, (uint16_t)page, (uint16_t)count);
        }
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
        free(row);
        row = malloc((size_t)width * samples * sample_bytes);
        if (row == NULL) {
            ok = 0;
            break;
        }
        for (uint32_t y = 0; ok && y < height; y++) {
            const size_t pixel = 4 * (size_t)sample_bytes, kept = (size_t)samples * sample_bytes;
            const uint8_t *source = (const uint8_t *)pages[page] + (size_t)y * width * pixel;
            for (uint32_t x = 0; x < width; x++) {
                uint8_t *to = row + (size_t)x * kept;
                const uint8_t *from = source + (size_t)x * pixel;
                if (gray) {
                    memcpy(to, from, sample_bytes);
                    if (has_alpha) memcpy(to + sample_bytes, from + 3 * sample_bytes, sample_bytes);
                } else {
                    memcpy(to, from, kept);
                }
            }
            if (TIFFWriteScanline(tif, row, y, 0) < 0) ok = 0;
        }
        if (ok && !TIFFWriteDirectory(tif)) ok = 0;
    }
    free(row);
    TIFFClose(tif);
    if (!ok || memory.failed) {
        cwi_tiff_set_error(err, errlen, "libtiff could not write the pages", &messages);
        free(memory.data);
        return NULL;
    }
    *out_size = memory.size;
    return memory.data;
}

uint8_t *cwi_tiff_write(const uint8_t *const *pages, const uint32_t *widths, const uint32_t *heights, int count,
                        int has_alpha, int gray, size_t *out_size, char *err, size_t errlen) {
    return cwi_tiff_write_pages((const void *const *)pages, 1, widths, heights, count, has_alpha, gray, out_size, err,
                                errlen);
}

uint8_t *cwi_tiff_write_deep(const uint16_t *const *pages, const uint32_t *widths, const uint32_t *heights,
                             int count, int has_alpha, int gray, size_t *out_size, char *err, size_t errlen) {
    return cwi_tiff_write_pages((const void *const *)pages, 2, widths, heights, count, has_alpha, gray, out_size, err,
                                errlen);
}

void cwi_tiff_free(void *buffer) { free(buffer); }

int cwi_tiff_current_block(cwi_tiff_reader *reader, int xmp, const uint8_t **data, uint32_t *count) {
    void *bytes = NULL;
    uint32_t length = 0;
    if (!TIFFGetField(reader->tif, xmp ? TIFFTAG_XMLPACKET : TIFFTAG_ICCPROFILE, &length, &bytes) || bytes == NULL ||
        length == 0)
        return 0;
    *data = bytes;
    *count = length;
    return 1;
}

#endif /* WEBIMAGE_TIFF */
