/* jpeg shim: libjpeg's error_exit must not return, and Swift cannot call setjmp, so every
 * libjpeg call that can fail lives here behind a setjmp/longjmp error manager. */
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include "jpeg_shim.h"

#define CWI_ROWS_PER_CALL 16

typedef struct cwi_error_mgr {
    struct jpeg_error_mgr pub; /* must be first: libjpeg sees only this part */
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int strict;    /* longjmp out as soon as the data proves truncated */
    int saw_eof;   /* the source ran out and libjpeg inserted a fake EOI */
    int truncated; /* pixels are missing: entropy bits needed after EOF, or unrefined scans */
} cwi_error_mgr;

static void cwi_copy_message(const char *message, char *err, size_t errlen) {
    if (err == NULL || errlen == 0) return;
    snprintf(err, errlen, "%s", message);
}

static void cwi_error_exit(j_common_ptr cinfo) {
    cwi_error_mgr *mgr = (cwi_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, mgr->message);
    longjmp(mgr->jump, 1);
}

static void cwi_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* Counts warnings and recognises truncation: libjpeg's memory source emits JWRN_JPEG_EOF when it
 * runs dry, and the Huffman decoder JWRN_HIT_MARKER when it then needs bits it cannot have. A
 * file that lacks only its EOI marker gets the first warning but not the second. */
static void cwi_emit_message(j_common_ptr cinfo, int msg_level) {
    cwi_error_mgr *mgr = (cwi_error_mgr *)cinfo->err;
    if (msg_level >= 0) return; /* trace messages */
    mgr->pub.num_warnings++;
    if (mgr->pub.msg_code == JWRN_JPEG_EOF) {
        mgr->saw_eof = 1;
    } else if (mgr->pub.msg_code == JWRN_HIT_MARKER && mgr->saw_eof) {
        mgr->truncated = 1;
        if (mgr->strict) {
            snprintf(mgr->message, sizeof mgr->message, "the JPEG data is truncated (it ends inside the image data)");
            longjmp(mgr->jump, 1);
        }
    }
}

static void cwi_init_error(cwi_error_mgr *mgr, int strict) {
    memset(mgr, 0, sizeof *mgr);
    jpeg_std_error(&mgr->pub);
    mgr->pub.error_exit = cwi_error_exit;
    mgr->pub.output_message = cwi_output_message;
    mgr->pub.emit_message = cwi_emit_message;
    mgr->strict = strict;
}

/* Chooses the output colour space. CMYK and YCCK come out as CMYK and are converted here,
 * because libjpeg-turbo has no CMYK→RGB conversion. */
static void cwi_configure_output(j_decompress_ptr cinfo, int scale_num) {
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = 8;
    switch (cinfo->jpeg_color_space) {
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        break;
    default:
        /* gray, YCbCr and RGB convert to RGBA inside libjpeg-turbo (alpha = 255); anything
         * else makes jpeg_start_decompress fail with "unsupported color conversion". */
        cinfo->out_color_space = JCS_EXT_RGBA;
        break;
    }
}

struct cwi_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    cwi_error_mgr mgr;
    int used; /* decode_into runs once: libjpeg cannot rewind its memory source */
};

cwi_jpeg_decoder *cwi_jpeg_open(const uint8_t *data, size_t len, cwi_jpeg_header *header,
                                char *err, size_t errlen) {
    if (header == NULL) return NULL;
    memset(header, 0, sizeof *header);
    if (data == NULL || len == 0) {
        cwi_copy_message("the data is empty", err, errlen);
        return NULL;
    }
    if ((unsigned long)len != len) {
        cwi_copy_message("the data is too large for libjpeg", err, errlen);
        return NULL;
    }
    /* On the heap, so nothing libjpeg touches lives in a local across setjmp. */
    cwi_jpeg_decoder *d = (cwi_jpeg_decoder *)calloc(1, sizeof *d);
    if (d == NULL) {
        cwi_copy_message("out of memory", err, errlen);
        return NULL;
    }
    cwi_init_error(&d->mgr, 0);
    d->cinfo.err = &d->mgr.pub;
    if (setjmp(d->mgr.jump)) {
        cwi_copy_message(d->mgr.message, err, errlen);
        header->hit_eof = d->mgr.saw_eof;
        jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    jpeg_mem_src(&d->cinfo, data, (unsigned long)len);
    jpeg_read_header(&d->cinfo, TRUE);
    header->width = (int)d->cinfo.image_width;
    header->height = (int)d->cinfo.image_height;
    header->components = d->cinfo.num_components;
    header->color_space = (int)d->cinfo.jpeg_color_space;
    header->progressive = d->cinfo.progressive_mode ? 1 : 0;
    header->adobe_marker = d->cinfo.saw_Adobe_marker ? 1 : 0;
    header->hit_eof = d->mgr.saw_eof;
    return d;
}

void cwi_jpeg_close(cwi_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

/* Multiplicative CMYK→RGB in place. Adobe's writers store the inks inverted (0 = full ink). */
static void cwi_cmyk_rows_to_rgba(uint8_t *row, size_t stride, JDIMENSION width, JDIMENSION count, int inverted) {
    for (JDIMENSION r = 0; r < count; r++, row += stride) {
        uint8_t *p = row;
        for (JDIMENSION x = 0; x < width; x++, p += 4) {
            unsigned c = p[0], m = p[1], y = p[2], k = p[3];
            if (!inverted) {
                c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
            }
            p[0] = (uint8_t)((c * k + 127) / 255);
            p[1] = (uint8_t)((m * k + 127) / 255);
            p[2] = (uint8_t)((y * k + 127) / 255);
            p[3] = 255;
        }
    }
}

/* Whether every coefficient of every component has been refined down to bit 0 (coef_bits is
 * -1 for coefficients no scan has touched). A complete progressive JPEG always ends that way. */
static int cwi_fully_refined(j_decompress_ptr cinfo) {
    if (cinfo->coef_bits == NULL) return 0;
    for (int c = 0; c < cinfo->num_components; c++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            if (cinfo->coef_bits[c][k] != 0) return 0;
        }
    }
    return 1;
}

int cwi_jpeg_decode_into(cwi_jpeg_decoder *d, int scale_num, int strict, size_t max_memory,
                         uint8_t *dst, size_t stride, int expected_width, int expected_height,
                         cwi_jpeg_decode_result *result, char *err, size_t errlen) {
    JSAMPROW rows[CWI_ROWS_PER_CALL];
    if (d == NULL || dst == NULL || result == NULL) {
        cwi_copy_message("invalid decoder arguments", err, errlen);
        return -1;
    }
    memset(result, 0, sizeof *result);
    if (d->used) {
        cwi_copy_message("the decoder was already used", err, errlen);
        return -1;
    }
    d->used = 1;
    if (scale_num < 1 || scale_num > 16) {
        cwi_copy_message("the DCT scale must be 1...16 eighths", err, errlen);
        return -1;
    }
    if (expected_width <= 0 || expected_height <= 0 || stride / 4 < (size_t)expected_width) {
        cwi_copy_message("the destination buffer does not fit the image", err, errlen);
        return -1;
    }
    j_decompress_ptr cinfo = &d->cinfo;
    cwi_error_mgr *mgr = &d->mgr;
    mgr->strict = strict;
    if (setjmp(mgr->jump)) {
        cwi_copy_message(mgr->message, err, errlen);
        result->num_warnings = (int)mgr->pub.num_warnings;
        result->hit_eof = mgr->saw_eof;
        result->truncated = mgr->truncated;
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    /* libjpeg-turbo's memory manager refuses (no backing store) whole-image arrays past this. */
    cinfo->mem->max_memory_to_use = max_memory > (size_t)LONG_MAX ? LONG_MAX : (long)max_memory;
    cwi_configure_output(cinfo, scale_num);
    jpeg_calc_output_dimensions(cinfo);
    if ((int)cinfo->output_width != expected_width || (int)cinfo->output_height != expected_height) {
        snprintf(mgr->message, sizeof mgr->message, "the output size is not the expected %dx%d",
                 expected_width, expected_height);
        longjmp(mgr->jump, 1);
    }
    int cmyk = cinfo->out_color_space == JCS_CMYK;
    int inverted = cinfo->saw_Adobe_marker ? 1 : 0;
    int single_scan = !jpeg_has_multiple_scans(cinfo);
    jpeg_start_decompress(cinfo);
    /* Progressive: start_decompress has read every scan. A cut between scans (or inside a table
     * segment between them) leaves no missing entropy bits, only unrefined coefficients. */
    if (cinfo->progressive_mode && mgr->saw_eof && !cwi_fully_refined(cinfo)) {
        mgr->truncated = 1;
        if (strict) {
            snprintf(mgr->message, sizeof mgr->message, "the JPEG data is truncated (scans are missing)");
            longjmp(mgr->jump, 1);
        }
    }
    if (cinfo->output_components != 4) {
        snprintf(mgr->message, sizeof mgr->message, "unexpected output of %d components", cinfo->output_components);
        longjmp(mgr->jump, 1);
    }
    JDIMENSION height = cinfo->output_height;
    JDIMENSION valid_rows = height;
    while (cinfo->output_scanline < height) {
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION want = height - first < CWI_ROWS_PER_CALL ? height - first : CWI_ROWS_PER_CALL;
        for (JDIMENSION i = 0; i < want; i++) rows[i] = dst + (size_t)(first + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows, want);
        if (cmyk) cwi_cmyk_rows_to_rgba(rows[0], stride, cinfo->output_width, got, inverted);
        if (got == 0 || (single_scan && mgr->truncated)) {
            /* Partial mode: the rows of this call were decoded from missing data. */
            valid_rows = first;
            break;
        }
    }
    if (valid_rows < height) {
        memset(dst + (size_t)valid_rows * stride, 0, (size_t)(height - valid_rows) * stride);
    }
    result->num_warnings = (int)mgr->pub.num_warnings;
    result->hit_eof = mgr->saw_eof;
    result->truncated = mgr->truncated;
    result->valid_rows = (int)valid_rows;
    /* No jpeg_finish_decompress: every pixel is out, and reading on to EOI would only make a
     * file that lacks its EOI marker look truncated. */
    jpeg_abort_decompress(cinfo);
    return 0;
}

/* A growable malloc'd destination; unlike jpeg_mem_dest it lets the error path free the
 * live buffer (jpeg_mem_dest only publishes it in term_destination). */
typedef struct cwi_destination {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
} cwi_destination;

static void cwi_init_destination(j_compress_ptr cinfo) { (void)cinfo; }

static boolean cwi_empty_output_buffer(j_compress_ptr cinfo) {
    cwi_destination *dest = (cwi_destination *)cinfo->dest;
    size_t used = dest->capacity;
    size_t grown = dest->capacity * 2;
    uint8_t *bigger = grown > used ? (uint8_t *)realloc(dest->buffer, grown) : NULL;
    if (bigger == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    dest->buffer = bigger;
    dest->capacity = grown;
    dest->pub.next_output_byte = bigger + used;
    dest->pub.free_in_buffer = grown - used;
    return TRUE;
}

static void cwi_term_destination(j_compress_ptr cinfo) { (void)cinfo; }

/* Everything the encoder's error path reads lives on the heap, not in locals across setjmp. */
typedef struct cwi_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    cwi_error_mgr mgr;
    cwi_destination dest;
} cwi_jpeg_encoder;

int cwi_jpeg_encode_rgba(const uint8_t *rgba, int width, int height, size_t stride, int quality,
                         int progressive, int subsampling, int optimize_coding, int grayscale, uint8_t **out,
                         unsigned long *outlen, char *err, size_t errlen) {
    JSAMPROW rows[CWI_ROWS_PER_CALL];
    if (rgba == NULL || out == NULL || outlen == NULL || width <= 0 || height <= 0 ||
        stride / 4 < (size_t)width) {
        cwi_copy_message("invalid encoder arguments", err, errlen);
        return -1;
    }
    cwi_jpeg_encoder *e = (cwi_jpeg_encoder *)calloc(1, sizeof *e);
    if (e == NULL) {
        cwi_copy_message("out of memory", err, errlen);
        return -1;
    }
    cwi_init_error(&e->mgr, 0);
    e->cinfo.err = &e->mgr.pub;
    if (setjmp(e->mgr.jump)) {
        cwi_copy_message(e->mgr.message, err, errlen);
        jpeg_destroy_compress(&e->cinfo);
        free(e->dest.buffer);
        free(e);
        return -1;
    }
    jpeg_create_compress(&e->cinfo);
    e->dest.capacity = 65536;
    e->dest.buffer = (uint8_t *)malloc(e->dest.capacity);
    if (e->dest.buffer == NULL) ERREXIT1(&e->cinfo, JERR_OUT_OF_MEMORY, 11);
    e->dest.pub.init_destination = cwi_init_destination;
    e->dest.pub.empty_output_buffer = cwi_empty_output_buffer;
    e->dest.pub.term_destination = cwi_term_destination;
    e->dest.pub.next_output_byte = e->dest.buffer;
    e->dest.pub.free_in_buffer = e->dest.capacity;
    e->cinfo.dest = &e->dest.pub;
    e->cinfo.image_width = (JDIMENSION)width;
    e->cinfo.image_height = (JDIMENSION)height;
    e->cinfo.input_components = 4;
    e->cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&e->cinfo);
    jpeg_set_quality(&e->cinfo, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    /* Luma's sampling factors set the colour channels' resolution (theirs stay 1x1): 2x2 is
     * 4:2:0 (libjpeg's default), 2x1 is 4:2:2, 1x1 is 4:4:4. */
    if (grayscale) {
        /* One component, luma only: libjpeg-turbo's RGB-to-gray weights sum to exactly 1, so a
         * pixel with R = G = B keeps its value. */
        jpeg_set_colorspace(&e->cinfo, JCS_GRAYSCALE);
    } else {
        e->cinfo.comp_info[0].h_samp_factor = subsampling == 2 ? 1 : 2;
        e->cinfo.comp_info[0].v_samp_factor = subsampling == 0 ? 2 : 1;
    }
    if (optimize_coding) e->cinfo.optimize_coding = TRUE;
    if (progressive) jpeg_simple_progression(&e->cinfo);
    jpeg_start_compress(&e->cinfo, TRUE);
    while (e->cinfo.next_scanline < e->cinfo.image_height) {
        JDIMENSION first = e->cinfo.next_scanline;
        JDIMENSION left = e->cinfo.image_height - first;
        JDIMENSION want = left < CWI_ROWS_PER_CALL ? left : CWI_ROWS_PER_CALL;
        for (JDIMENSION i = 0; i < want; i++) rows[i] = (JSAMPROW)(rgba + (size_t)(first + i) * stride);
        jpeg_write_scanlines(&e->cinfo, rows, want);
    }
    jpeg_finish_compress(&e->cinfo);
    size_t used = e->dest.capacity - e->dest.pub.free_in_buffer;
    /* Give back the slack of the last doubling (usually shrinks in place), so that a caller can
     * keep the buffer without copying it. */
    uint8_t *fitted = used > 0 ? (uint8_t *)realloc(e->dest.buffer, used) : NULL;
    *out = fitted != NULL ? fitted : e->dest.buffer;
    *outlen = (unsigned long)used;
    jpeg_destroy_compress(&e->cinfo);
    free(e);
    return 0;
}

void cwi_jpeg_free(void *pointer) { free(pointer); }
